/**
 * The current webhooks of one configuration kind, kept in memory by following its collection: a change takes
 * effect as soon as it is committed, with no restart. Hooks are ordered as kube orders them: configurations by
 * name, then each configuration's webhooks in their listed order.
 */
import type { KubeObject } from "../../core/api/types.ts";
import type { ReadOnlyClient } from "../../core/api/client.ts";
import type { CollectionEvent, CollectionFollow } from "../../core/api/client.ts";
import { type Webhook, webhooksOf } from "./webhook.ts";

export type ConfigurationResource = "mutatingwebhookconfigurations" | "validatingwebhookconfigurations";

export class WebhookConfigurations {
  readonly #byName = new Map<string, KubeObject>();
  #hooks: Webhook[] | undefined;
  #follow: CollectionFollow | undefined;

  /**
   * Follows the collection; resolves once the stored configurations are loaded. With the type not served
   * (--runtime-config=admissionregistration.k8s.io/v1=false) there are no configurations, so no webhook is called.
   */
  static async follow(client: ReadOnlyClient, resource: ConfigurationResource, served = true): Promise<WebhookConfigurations> {
    const configurations = new WebhookConfigurations();
    if (!served) return configurations;
    configurations.#follow = await client.watch(
      { group: "admissionregistration.k8s.io", version: "v1", resource },
      (event) => configurations.apply(event),
    );
    return configurations;
  }

  /** Takes one change of the collection into account. */
  apply(event: CollectionEvent): void {
    const name = event.object.metadata.name ?? "";
    if (event.type === "DELETED") this.#byName.delete(name);
    else this.#byName.set(name, event.object);
    this.#hooks = undefined;
  }

  /** Every webhook, in calling order. */
  hooks(): readonly Webhook[] {
    this.#hooks ??= [...this.#byName.keys()].sort().flatMap((name) => webhooksOf(this.#byName.get(name)!));
    return this.#hooks;
  }

  stop(): void {
    this.#follow?.stop();
  }
}
