/**
 * kube plugin names kubun accepts in flags but that have nothing to act on here (or are not built yet, as
 * noted in admission-plugins/mod.ts): each loads as a plugin that handles no request.
 */
import type { BuiltInAdmissionFactory } from "../core/admission/types.ts";

export function acceptedName(name: string): () => Promise<{ default: BuiltInAdmissionFactory }> {
  return () => Promise.resolve({ default: () => ({ name, handles: () => false }) });
}
