/**
 * A custom plugin's refusal as a core/v1 Event on the refused object (reason PolicyViolation, type Warning),
 * the way policy engines report violations: `kubectl describe` and `kubectl get events` show it. Written by
 * the server itself (no admission) without holding up the request, never for a dry run, and through
 * client-go's spam filter: a client repeating a refused request cannot fill the store with Events.
 */
import type { KubeObject } from "../api/types.ts";
import type { PluginLogger } from "../auth/plugin-context.ts";
import { EventSpamFilter, newEvent } from "../controllers/runtime/mod.ts";
import type { Catalog } from "../registry/catalog.ts";
import type { Registry } from "../registry/registry.ts";
import type { Violation } from "../admission/chain.ts";

export const VIOLATION_REASON = "PolicyViolation";
const COMPONENT = "kubun-admission";

export function violationEventRecorder(registry: Registry, catalog: Catalog, log: PluginLogger): (violation: Violation) => void {
  const events = registry.store(catalog.byGroupVersionResource("", "v1", "events")!);
  const spam = new EventSpamFilter();
  return ({ attributes, pluginName, actions, message }) => {
    const object = attributes.object ?? attributes.oldObject;
    const name = attributes.name || object?.metadata.name;
    if (attributes.dryRun || !name) return;
    const { group, version, kind } = attributes.kind;
    const involved: KubeObject = {
      apiVersion: group ? `${group}/${version}` : version,
      kind,
      metadata: {
        name,
        namespace: attributes.namespace || undefined,
        uid: object?.metadata.uid,
        resourceVersion: object?.metadata.resourceVersion,
      },
    };
    const event = newEvent(involved, {
      type: "Warning",
      reason: VIOLATION_REASON,
      message: `admission plugin "${pluginName}" (${actions.join(", ")}): ${message}`,
      component: COMPONENT,
    });
    if (!spam.allows(event)) return;
    events.create(event.metadata.namespace!, event).catch((error: Error) =>
      log.warn(`cannot record the violation as an Event: ${error.message}`)
    );
  };
}
