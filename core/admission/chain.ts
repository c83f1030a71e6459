/**
 * The admission chain (k8s.io/apiserver pkg/admission chain.go + reinvocation.go): plugins in a fixed order,
 * each asked whether it handles the request, `admit` for all then `validate` for all. Implements the store's
 * AdmissionHook; one request's attributes live from its admit to its validate. Every plugin call and each phase
 * is timed as kube's WithControllerMetrics/WithStepMetrics do; a custom plugin's refusal goes through its
 * validationActions (enforcement.ts) and is recorded as a violation.
 */
import type { KubeObject } from "../api/types.ts";
import { thenOrNow } from "../api/then-or-now.ts";
import type { AdmissionHook, AdmittedWrite } from "../registry/admission-hook.ts";
import { refuses, VALIDATION_FAILURE_ANNOTATION, type ValidationAction, type ValidationFailure, violationWarning } from "./enforcement.ts";
import { dryRunUnsupported, toAdmissionError } from "./errors.ts";
import { AdmissionMetrics, type AdmissionStep } from "./metrics.ts";
import { withTimeout } from "./timeout.ts";
import type { AdmissionAttributes, AdmissionPlugin } from "./types.ts";

/** A refusal the chain recorded: the request, the plugin, its actions and the message. */
export interface Violation {
  attributes: AdmissionAttributes;
  pluginName: string;
  actions: readonly ValidationAction[];
  message: string;
}

export interface ChainOptions {
  metrics?: AdmissionMetrics;
  /** The validationActions of plugins that have them (custom plugins); the others simply refuse. */
  actions?: Map<AdmissionPlugin, readonly ValidationAction[]>;
  /** Told of every refusal by a plugin with actions (the server records an Event). */
  onViolation?(violation: Violation): void;
}

export class AdmissionChain implements AdmissionHook {
  readonly #plugins: readonly AdmissionPlugin[];
  /** The plugins with each phase, in chain order, found once rather than per request. */
  readonly #byPhase: Readonly<Record<"admit" | "validate", readonly AdmissionPlugin[]>>;
  readonly #attributes = new WeakMap<AdmittedWrite, AdmissionAttributes>();
  /** Per request: the audit annotations the write collects, and the validation failures recorded so far. */
  readonly #audit = new WeakMap<AdmissionAttributes, { annotations?: Map<string, string>; failures: ValidationFailure[] }>();
  readonly #metrics: AdmissionMetrics;
  readonly #options: ChainOptions;

  constructor(plugins: readonly AdmissionPlugin[], options: ChainOptions = {}) {
    this.#plugins = plugins;
    this.#byPhase = { admit: plugins.filter((plugin) => plugin.admit), validate: plugins.filter((plugin) => plugin.validate) };
    this.#metrics = options.metrics ?? new AdmissionMetrics();
    this.#options = options;
  }

  /** Releases what plugins hold (custom plugins' workers). */
  close(): void {
    for (const plugin of this.#plugins) plugin.close?.();
  }

  get pluginNames(): string[] {
    return this.#plugins.map((plugin) => plugin.name);
  }

  /**
   * Runs the mutating phase, once more if a plugin asked for reinvocation; true when some `admit` ran. Answered at once
   * when every plugin did; a refusal is always a rejected promise.
   */
  admit(write: AdmittedWrite): boolean | Promise<boolean> {
    return this.#timedStep("admit", write, () => this.#admit(write));
  }

  validate(write: AdmittedWrite): void | Promise<void> {
    return this.#timedStep("validate", write, () => thenOrNow(this.#runPhase(this.#attributesOf(write), "validate", 0), nothing));
  }

  #admit(write: AdmittedWrite): boolean | Promise<boolean> {
    const attributes = this.#attributesOf(write);
    let reinvoke = false;
    attributes.reinvocation = reinvocationContext(false, new Map(), () => (reinvoke = true));
    const again = (ran: boolean): boolean | Promise<boolean> => {
      if (!reinvoke) return ran;
      attributes.reinvocation = reinvocationContext(true, attributes.reinvocation.values, () => {});
      return thenOrNow(this.#runPhase(attributes, "admit", 0), (ranAgain) => ranAgain || ran);
    };
    return thenOrNow(this.#runPhase(attributes, "admit", 0), again);
  }

  /**
   * kube's WithStepMetrics: one observation per phase, rejected when the phase refused the request. A phase whose
   * plugins all answered at once is answered without a promise (bench/profiles/create-path.md, fourteenth session).
   */
  #timedStep<T>(step: AdmissionStep, write: AdmittedWrite, run: () => T | Promise<T>): T | Promise<T> {
    const started = performance.now();
    const observe = (rejected: boolean) => this.#metrics.observeStep(step, write.operation, (performance.now() - started) / 1000, rejected);
    let result: T | Promise<T>;
    try {
      result = run();
    } catch (error) {
      observe(true);
      return Promise.reject(error);
    }
    if (!(result instanceof Promise)) {
      observe(false);
      return result;
    }
    return result.then((value) => {
      observe(false);
      return value;
    }, (error: unknown) => {
      observe(true);
      throw error;
    });
  }

  /**
   * The phase's plugins from `from` on, each asked whether it handles the request just before its call, as kube's
   * chainAdmissionHandler.Admit and Validate ask Handles; true when some plugin ran. It goes on at once after a plugin
   * that answered at once, and after the promise of one that did not.
   */
  #runPhase(attributes: AdmissionAttributes, phase: AdmissionStep, from: number): boolean | Promise<boolean> {
    const plugins = this.#byPhase[phase];
    let ran = from > 0;
    for (let index = from; index < plugins.length; index++) {
      const plugin = plugins[index]!;
      if (!(plugin.handles?.(attributes) ?? true)) continue;
      const original = attributes.object;
      const called = this.#call(plugin, attributes, phase);
      ran = true;
      if (called) {
        return called.then(() => {
          if (phase === "admit") keepIdentity(attributes, original);
          return this.#runPhase(attributes, phase, index + 1);
        });
      }
      if (phase === "admit") keepIdentity(attributes, original);
    }
    return ran;
  }

  /**
   * One plugin call, timed as kube's WithControllerMetrics; a refusal goes through the plugin's actions. A plugin that
   * answers at once, without a timeout, is answered without a promise: most built-in ones do, and two async frames
   * per plugin and phase cost a create ~1-2 µs (bench/profiles/create-path.md, thirteenth session).
   */
  #call(plugin: AdmissionPlugin, attributes: AdmissionAttributes, step: AdmissionStep): Promise<void> | void {
    if (plugin.sideEffects && attributes.dryRun) throw dryRunUnsupported(plugin.name);
    const started = performance.now();
    let called: Promise<void> | void;
    try {
      const timeoutMs = plugin.timeoutMs;
      called = timeoutMs ? withTimeout(() => plugin[step]!(attributes), timeoutMs, plugin.name) : plugin[step]!(attributes);
    } catch (error) {
      return this.#called(plugin, attributes, step, started, true, error);
    }
    // Whatever a plugin returns is awaited as before (a thenable too); only a plain return is answered at once.
    if (called !== undefined) {
      return Promise.resolve(called).then(
        () => this.#called(plugin, attributes, step, started, false),
        (error: unknown) => this.#called(plugin, attributes, step, started, true, error),
      );
    }
    this.#called(plugin, attributes, step, started, false);
  }

  /** The end of a plugin call: observed, and when it failed its refusal thrown unless its actions let it through. */
  #called(
    plugin: AdmissionPlugin,
    attributes: AdmissionAttributes,
    step: AdmissionStep,
    started: number,
    failed: boolean,
    error?: unknown,
  ): void {
    let refusal: ReturnType<typeof toAdmissionError> | undefined;
    if (failed) {
      refusal = toAdmissionError(error, attributes, plugin.name);
      const actions = this.#options.actions?.get(plugin);
      if (actions && refusal.code < 500) this.#recordViolation(plugin.name, actions, attributes, refusal.message);
      if (actions && !refuses(actions, refusal)) refusal = undefined;
    }
    this.#metrics.observePlugin(plugin.name, step, attributes.operation, (performance.now() - started) / 1000, refusal !== undefined);
    if (refusal) throw refusal;
  }

  #recordViolation(pluginName: string, actions: readonly ValidationAction[], attributes: AdmissionAttributes, message: string): void {
    for (const action of actions) this.#metrics.violation(pluginName, action);
    if (actions.includes("Warn")) attributes.addWarning(violationWarning(pluginName, message));
    if (actions.includes("Audit")) {
      // One annotation lists every plugin's failure, so it is rewritten as the list grows.
      const audit = this.#audit.get(attributes);
      audit?.failures.push({ message, policy: pluginName, validationActions: [...actions] });
      if (audit) audit.annotations?.set(VALIDATION_FAILURE_ANNOTATION, JSON.stringify(audit.failures));
    }
    this.#options.onViolation?.({ attributes, pluginName, actions, message });
  }

  #attributesOf(write: AdmittedWrite): AdmissionAttributes {
    let attributes = this.#attributes.get(write);
    if (!attributes) {
      attributes = attributesFor(write);
      this.#attributes.set(write, attributes);
      this.#audit.set(attributes, { annotations: write.auditAnnotations, failures: [] });
    }
    return attributes;
  }
}

/** A validating phase answers nothing, whether plugins ran or not. */
function nothing(): void {}

function reinvocationContext(isReinvoke: boolean, values: Map<string, unknown>, request: () => void): AdmissionAttributes["reinvocation"] {
  return { isReinvoke, values, requestReinvocation: request };
}

/** The store writes the object it handed out: a plugin that replaced it has its result copied back in place. */
function keepIdentity(attributes: AdmissionAttributes, original: KubeObject | null): void {
  const replaced = attributes.object;
  if (!original || !replaced || replaced === original) return;
  for (const key of Object.keys(original)) delete original[key];
  Object.assign(original, replaced);
  attributes.object = original;
}

export function attributesFor(write: AdmittedWrite): AdmissionAttributes {
  const { type } = write;
  const subresourceKind = write.subresource ? type.subresources.find((s) => s.name === write.subresource) : undefined;
  const auditAnnotations = write.auditAnnotations ?? new Map<string, string>();
  return {
    operation: write.operation,
    object: write.object,
    oldObject: write.oldObject,
    kind: {
      group: subresourceKind?.group ?? type.group,
      version: subresourceKind?.version ?? type.version,
      kind: subresourceKind?.kind ?? type.kind,
    },
    resource: { group: type.group, version: type.version, resource: type.resource },
    subresource: write.subresource,
    name: write.name,
    namespace: write.namespace,
    user: write.user,
    dryRun: write.dryRun,
    options: write.options,
    reinvocation: reinvocationContext(false, new Map(), () => {}),
    addWarning: (text) => write.warnings?.push(text),
    addAuditAnnotation: (key, value) => {
      if (!auditAnnotations.has(key)) auditAnnotations.set(key, value);
    },
  };
}
