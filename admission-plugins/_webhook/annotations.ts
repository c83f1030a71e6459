/** Audit annotation keys and values of webhook calls (spec 6.5), as kube's webhook annotators write them. */

const MUTATION_PREFIX = "mutation.webhook.admission.k8s.io/";
const PATCH_PREFIX = "patch.webhook.admission.k8s.io/";

function position(round: number, index: number): string {
  return `round_${round}_index_${index}`;
}

export interface HookPosition {
  configuration: string;
  webhook: string;
  /** 0 for the first pass, 1 for the reinvocation pass. */
  round: number;
  /** The hook's index among all configured hooks of its kind. */
  index: number;
}

export function mutationAnnotation(at: HookPosition, mutated: boolean): [string, string] {
  return [
    `${MUTATION_PREFIX}${position(at.round, at.index)}`,
    JSON.stringify({ configuration: at.configuration, webhook: at.webhook, mutated }),
  ];
}

export function patchAnnotation(at: HookPosition, patch: unknown): [string, string] {
  return [
    `${PATCH_PREFIX}${position(at.round, at.index)}`,
    JSON.stringify({ configuration: at.configuration, webhook: at.webhook, patch, patchType: "JSONPatch" }),
  ];
}

/** Marks a hook whose call failed and was ignored (failurePolicy Ignore). */
export function failedOpenAnnotation(kind: "mutation" | "validating", at: HookPosition): [string, string] {
  return [`failed-open.${kind}.webhook.admission.k8s.io/${position(at.round, at.index)}`, at.webhook];
}
