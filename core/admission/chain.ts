/**
 * The admission chain (k8s.io/apiserver pkg/admission chain.go + reinvocation.go): plugins in a fixed order,
 * each asked whether it handles the request, `admit` for all then `validate` for all. Implements the store's
 * AdmissionHook; one request's attributes live from its admit to its validate.
 */
import type { KubeObject } from "../api/types.ts";
import type { AdmissionHook, AdmittedWrite } from "../registry/admission-hook.ts";
import { dryRunUnsupported, toAdmissionError } from "./errors.ts";
import { withTimeout } from "./timeout.ts";
import type { AdmissionAttributes, AdmissionPlugin } from "./types.ts";

export class AdmissionChain implements AdmissionHook {
  readonly #plugins: readonly AdmissionPlugin[];
  readonly #attributes = new WeakMap<AdmittedWrite, AdmissionAttributes>();

  constructor(plugins: readonly AdmissionPlugin[]) {
    this.#plugins = plugins;
  }

  get pluginNames(): string[] {
    return this.#plugins.map((plugin) => plugin.name);
  }

  /** Runs the mutating phase, once more if a plugin asked for reinvocation; true when some `admit` ran. */
  async admit(write: AdmittedWrite): Promise<boolean> {
    const attributes = this.#attributesOf(write);
    let reinvoke = false;
    attributes.reinvocation = reinvocationContext(false, new Map(), () => (reinvoke = true));
    let ran = await this.#admitOnce(attributes);
    if (reinvoke) {
      attributes.reinvocation = reinvocationContext(true, attributes.reinvocation.values, () => {});
      ran = (await this.#admitOnce(attributes)) || ran;
    }
    return ran;
  }

  async validate(write: AdmittedWrite): Promise<void> {
    const attributes = this.#attributesOf(write);
    for (const plugin of this.#handling(attributes, "validate")) {
      await this.#call(plugin, attributes, () => plugin.validate!(attributes));
    }
  }

  async #admitOnce(attributes: AdmissionAttributes): Promise<boolean> {
    let ran = false;
    for (const plugin of this.#handling(attributes, "admit")) {
      const original = attributes.object;
      await this.#call(plugin, attributes, () => plugin.admit!(attributes));
      keepIdentity(attributes, original);
      ran = true;
    }
    return ran;
  }

  #handling(attributes: AdmissionAttributes, phase: "admit" | "validate"): AdmissionPlugin[] {
    return this.#plugins.filter((plugin) => plugin[phase] && (plugin.handles?.(attributes) ?? true));
  }

  async #call(plugin: AdmissionPlugin, attributes: AdmissionAttributes, run: () => Promise<void> | void): Promise<void> {
    if (plugin.sideEffects && attributes.dryRun) throw dryRunUnsupported(plugin.name);
    try {
      await withTimeout(run, plugin.timeoutMs, plugin.name);
    } catch (error) {
      throw toAdmissionError(error, attributes, plugin.name);
    }
  }

  #attributesOf(write: AdmittedWrite): AdmissionAttributes {
    let attributes = this.#attributes.get(write);
    if (!attributes) {
      attributes = attributesFor(write);
      this.#attributes.set(write, attributes);
    }
    return attributes;
  }
}

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
