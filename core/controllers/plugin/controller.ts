/**
 * A controller plugin as a loop of the controller runtime: one work queue fed by an informer per watched
 * type; each key is reconciled with the object the informer has, through the plugin's client.
 */
import { isDNS1123Subdomain } from "../../api/names.ts";
import type { Authorizer } from "../../auth/authorizer.ts";
import { pluginLogger } from "../../auth/plugin-context.ts";
import type { ServerConfig } from "../../config/mod.ts";
import { type Controller, controllerActor, enqueueChanges, keyOf, KNOWN_CONTROLLERS, splitKey } from "../runtime/mod.ts";
import { controllerClient } from "./client.ts";
import type { ControllerPlugin, ControllerPluginFactory, ResourceRef } from "./types.ts";

const ALLOW_ALL: Authorizer = { authorize: () => Promise.resolve({ decision: "Allow" }) };

/** Loads each factory's plugin; a name that is no service account name, or is taken, stops start-up. */
export async function buildPluginControllers(factories: readonly ControllerPluginFactory[], config: ServerConfig): Promise<Controller[]> {
  const taken = new Set<string>(KNOWN_CONTROLLERS);
  const controllers: Controller[] = [];
  for (const factory of factories) {
    const plugin = await factory({ config, log: pluginLogger("controller plugin") });
    const problems = isDNS1123Subdomain(plugin.name);
    if (problems.length > 0) throw new Error(`controller plugin name "${plugin.name}": ${problems.join(", ")}`);
    if (taken.has(plugin.name)) throw new Error(`controller plugin name "${plugin.name}" is already used by another controller`);
    taken.add(plugin.name);
    controllers.push(pluginController(plugin, config));
  }
  return controllers;
}

function pluginController(plugin: ControllerPlugin, config: ServerConfig): Controller {
  const log = pluginLogger(`controller ${plugin.name}`);
  // A key names the type and the object: `group/version/resource|namespace/name`.
  const typeKey = (ref: ResourceRef) => `${ref.group}/${ref.version}/${ref.resource}`;
  return {
    name: plugin.name,
    async start(ctx) {
      const client = controllerClient(
        (ref) => ctx.store(ref.group, ref.version, ref.resource),
        controllerActor(plugin.name, ctx.settings.authorizer ?? ALLOW_ALL),
        plugin.name,
      );
      const informers = new Map(
        await Promise.all(
          plugin.watches.map(async (ref) =>
            [typeKey(ref), { ref, informer: await ctx.informer(ref.group, ref.version, ref.resource) }] as const
          ),
        ),
      );
      const queue = ctx.queue(async (key) => {
        const [type, objectKey] = key.split("|") as [string, string];
        const { ref, informer } = informers.get(type)!;
        const { namespace, name } = splitKey(objectKey);
        const object = informer.get(namespace, name) ?? null;
        await plugin.reconcile({ ...ref, namespace, name, object }, { client, log, config, signal: ctx.signal });
      });
      // The informer replays what it holds as additions: every existing object is reconciled once at start.
      for (const [type, { informer }] of informers) enqueueChanges(informer, queue, (object) => `${type}|${keyOf(object)}`, ctx.signal);
    },
  };
}
