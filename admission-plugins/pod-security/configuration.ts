/**
 * PodSecurity's section of --admission-control-config-file: kube's PodSecurityConfiguration
 * (pod-security.admission.config.k8s.io v1, v1beta1, v1alpha1) with `defaults` per mode and `exemptions`.
 */
import { isPlainObject } from "../../core/api/types.ts";
import { MODES, type NamespacePolicy, parseLevel, parseVersion } from "./policy.ts";

export interface PodSecurityConfiguration {
  defaults: NamespacePolicy;
  exemptions: { usernames: Set<string>; namespaces: Set<string>; runtimeClasses: Set<string> };
}

const API_VERSIONS = ["v1", "v1beta1", "v1alpha1"].map((v) => `pod-security.admission.config.k8s.io/${v}`);

/** The configuration, or kube's built-in one (privileged:latest everywhere, no exemptions) when absent. */
export function readPodSecurityConfiguration(section: unknown): PodSecurityConfiguration {
  const config = section ?? {};
  if (!isPlainObject(config)) throw new Error("PodSecurity configuration must be an object");
  if (config.kind !== undefined && (config.kind !== "PodSecurityConfiguration" || !API_VERSIONS.includes(String(config.apiVersion)))) {
    throw new Error(`PodSecurity configuration: unsupported kind ${String(config.kind)} in ${String(config.apiVersion)}; expected PodSecurityConfiguration in ${API_VERSIONS[0]}`);
  }
  const defaults = (isPlainObject(config.defaults) ? config.defaults : {}) as Record<string, unknown>;
  const exemptions = (isPlainObject(config.exemptions) ? config.exemptions : {}) as Record<string, unknown>;
  const policy = Object.fromEntries(MODES.map((mode) => {
    const levelText = String(defaults[mode] ?? "privileged");
    const versionText = String(defaults[`${mode}-version`] ?? "latest");
    const level = parseLevel(levelText);
    const version = parseVersion(versionText);
    if (!level) throw new Error(`PodSecurity configuration: defaults.${mode}: Unsupported value: "${levelText}"`);
    if (version === undefined) throw new Error(`PodSecurity configuration: defaults.${mode}-version: Invalid value: "${versionText}"`);
    return [mode, { level, version }];
  })) as NamespacePolicy;
  const names = (key: string) => new Set(Array.isArray(exemptions[key]) ? (exemptions[key] as unknown[]).map(String) : []);
  return { defaults: policy, exemptions: { usernames: names("usernames"), namespaces: names("namespaces"), runtimeClasses: names("runtimeClasses") } };
}
