/**
 * Which mutating webhooks run again in the reinvocation pass (kube's webhookReinvokeContext): hooks with
 * reinvocationPolicy IfNeeded that ran before a later change of the object, by a webhook or by a built-in
 * plugin. Kept in the request's reinvocation values, one per request.
 */
import { isDeepStrictEqual } from "node:util";
import type { ReinvocationContext } from "../../core/admission/types.ts";
import type { KubeObject } from "../../core/api/types.ts";

export class WebhookReinvocationState {
  #lastOutput: KubeObject | null = null;
  #invokedReinvocable = new Set<string>();
  #toReinvoke = new Set<string>();

  /** The state of this request, created on first use. */
  static of(reinvocation: ReinvocationContext, key: string): WebhookReinvocationState {
    let state = reinvocation.values.get(key);
    if (!(state instanceof WebhookReinvocationState)) {
      state = new WebhookReinvocationState();
      reinvocation.values.set(key, state);
    }
    return state as WebhookReinvocationState;
  }

  /** Whether the object differs from what the webhooks left it as at the end of the last pass. */
  changedSinceLastPass(object: KubeObject | null): boolean {
    return !isDeepStrictEqual(this.#lastOutput, object);
  }

  /**
   * Kept only while a reinvocable hook has run: a later pass compares against it only to reinvoke those hooks, so
   * without one the copy (kube's SetLastWebhookInvocationOutput deep copy) would change nothing but the cost.
   */
  rememberOutput(object: KubeObject | null): void {
    this.#lastOutput = object === null || this.#invokedReinvocable.size === 0 ? null : structuredClone(object);
  }

  /** A hook with reinvocationPolicy IfNeeded has run. */
  addInvokedReinvocable(uid: string): void {
    this.#invokedReinvocable.add(uid);
  }

  /** The object changed: every reinvocable hook run so far must run again. */
  requireReinvokingPrevious(): void {
    for (const uid of this.#invokedReinvocable) this.#toReinvoke.add(uid);
    this.#invokedReinvocable.clear();
  }

  shouldReinvoke(uid: string): boolean {
    return this.#toReinvoke.has(uid);
  }
}
