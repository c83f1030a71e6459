/**
 * A kube plugin name whose behaviour kubun already has elsewhere (see admission-plugins/mod.ts): it loads as a
 * plugin that handles no request, because there is nothing left for it to do.
 */
import type { BuiltInAdmissionFactory } from "../core/admission/types.ts";

export function satisfiedElsewhere(name: string): () => Promise<{ default: BuiltInAdmissionFactory }> {
  return () => Promise.resolve({ default: () => ({ name, handles: () => false }) });
}
