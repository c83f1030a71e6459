/**
 * A custom admission plugin as the chain sees it: each call is sent to the plugin's worker pool and what the
 * plugin did comes back onto the request's attributes. The pool can be swapped for one holding a newer
 * version of the module (hot reload); calls already running finish on the old one.
 */
import { StatusError } from "../../api/errors.ts";
import { handlesRequest } from "../sdk/mod.ts";
import type { AdmissionAttributes, AdmissionPlugin, ValidationAttributes } from "../types.ts";
import type { WorkerPool } from "./pool.ts";
import type { WireAttributes } from "./protocol.ts";

export class IsolatedPlugin implements AdmissionPlugin {
  #pool: WorkerPool;
  /** The worker checks side effects against dry run itself, since only it knows whether the plugin handles the request. */
  readonly sideEffects = false;

  constructor(pool: WorkerPool) {
    this.#pool = pool;
  }

  get name(): string {
    return this.#pool.info.name;
  }

  get rules(): AdmissionPlugin["rules"] {
    return this.#pool.info.handles;
  }

  /** Declared rules are checked here; a plugin with a handles() function is asked in its worker. */
  handles(attributes: AdmissionAttributes): boolean {
    const rules = this.#pool.info.handles;
    return rules ? handlesRequest(rules as Parameters<typeof handlesRequest>[0], attributes) : true;
  }

  get admit(): ((attributes: AdmissionAttributes) => Promise<void>) | undefined {
    return this.#pool.info.admit ? (attributes) => this.#run("admit", attributes) : undefined;
  }

  get validate(): ((attributes: ValidationAttributes) => Promise<void>) | undefined {
    return this.#pool.info.validate ? (attributes) => this.#run("validate", attributes as AdmissionAttributes) : undefined;
  }

  /** Puts a pool holding a newer version in place; the old one stops once its running calls have answered. */
  swap(pool: WorkerPool): void {
    const old = this.#pool;
    this.#pool = pool;
    old.close();
  }

  /** Runs `stop` on close (the hot reload's file watch). */
  onClose(stop: () => void): void {
    this.#onClose.push(stop);
  }

  readonly #onClose: (() => void)[] = [];

  close(): void {
    for (const stop of this.#onClose) stop();
    this.#pool.close();
  }

  async #run(phase: "admit" | "validate", attributes: AdmissionAttributes): Promise<void> {
    const pool = this.#pool;
    const name = pool.info.name;
    const { reinvocation, addWarning: _w, addAuditAnnotation: _a, ...data } = attributes;
    const wire: WireAttributes = { ...data, isReinvoke: reinvocation.isReinvoke, reinvocationValue: reinvocation.values.get(name) };
    const outcome = await pool.call(phase, wire);
    if (!outcome.handled) return;
    for (const warning of outcome.warnings) attributes.addWarning(warning);
    for (const [key, value] of outcome.auditAnnotations) attributes.addAuditAnnotation(key, value);
    if (outcome.reinvocationValue !== undefined) reinvocation.values.set(name, outcome.reinvocationValue);
    if (outcome.reinvoke) reinvocation.requestReinvocation();
    if (outcome.refusal) {
      const { code, reason, message, details } = outcome.refusal;
      throw new StatusError(code, reason, message, details);
    }
    if (phase === "admit") attributes.object = outcome.object ?? null;
  }
}
