/**
 * --feature-gates as component-base's featureGate: `Name=bool` pairs checked against kube-apiserver 1.26's gates
 * (feature-gates-1.26.ts). Unknown names and a locked gate set away from its default stop start-up with kube's
 * messages; setting a GA or deprecated gate is allowed with kube's warning.
 */
import { parseGoBool } from "../api/query-params.ts";
import type { FlagType } from "./flag-types.ts";
import { type GateSpec, KUBE_1_26_FEATURE_GATES } from "./feature-gates-1.26.ts";

/** The gates set on the command line, by name; every other gate has its default. */
export type FeatureGateSettings = Readonly<Record<string, boolean>>;

function specOf(name: string): GateSpec | undefined {
  return Object.hasOwn(KUBE_1_26_FEATURE_GATES, name) ? KUBE_1_26_FEATURE_GATES[name] : undefined;
}

/** featureGate.Set then SetFromMap: the pairs, or kube's error for the first bad one. */
export function parseFeatureGates(text: string): Record<string, boolean> {
  const settings: Record<string, boolean> = {};
  for (const pair of text.split(",")) {
    if (pair.length === 0) continue;
    const at = pair.indexOf("=");
    const name = (at < 0 ? pair : pair.slice(0, at)).trim();
    if (at < 0) throw new Error(`missing bool value for ${name}`);
    const value = pair.slice(at + 1).trim();
    const enabled = parseGoBool(value);
    if (enabled === undefined) {
      throw new Error(`invalid value of ${name}=${value}, err: strconv.ParseBool: parsing ${JSON.stringify(value)}: invalid syntax`);
    }
    settings[name] = enabled;
  }
  for (const [name, enabled] of Object.entries(settings)) {
    const spec = specOf(name);
    if (!spec) throw new Error(`unrecognized feature gate: ${name}`);
    if (spec.locked && spec.default !== enabled) {
      throw new Error(`cannot set feature gate ${name} to ${enabled}, feature is locked to ${spec.default}`);
    }
  }
  return settings;
}

/** SetFromMap's warnings for the GA and deprecated gates among the settings. */
export function featureGateWarnings(settings: FeatureGateSettings): string[] {
  return Object.entries(settings).flatMap(([name, enabled]) => {
    const stage = specOf(name)?.stage;
    if (stage === "DEPRECATED") return [`Setting deprecated feature gate ${name}=${enabled}. It will be removed in a future release.`];
    if (stage === "GA") return [`Setting GA feature gate ${name}=${enabled}. It will be removed in a future release.`];
    return [];
  });
}

/**
 * featureGate.Enabled: the gate's setting, else AllAlpha/AllBeta for an unset gate of that stage (kube's
 * setUnsetAlphaGates/setUnsetBetaGates), else its 1.26 default.
 */
export function featureEnabled(settings: FeatureGateSettings, name: string): boolean {
  const spec = specOf(name);
  if (!spec) throw new Error(`feature gate ${name} is not a kube-apiserver 1.26 gate`);
  if (Object.hasOwn(settings, name)) return settings[name]!;
  if (spec.stage === "ALPHA" && Object.hasOwn(settings, "AllAlpha")) return settings.AllAlpha!;
  if (spec.stage === "BETA" && Object.hasOwn(settings, "AllBeta")) return settings.AllBeta!;
  return spec.default;
}

/** featureGate.KnownFeatures: the gates that can still be switched, as --help lists them. */
function knownFeatures(): string[] {
  return Object.entries(KUBE_1_26_FEATURE_GATES)
    .filter(([, spec]) => spec.stage === "ALPHA" || spec.stage === "BETA")
    .map(([name, spec]) => `${name}=true|false (${spec.stage} - default=${spec.default})`)
    .sort();
}

export const FEATURE_GATES_USAGE = "A set of key=value pairs that describe feature gates for alpha/experimental features. Options are:\n" +
  knownFeatures().join("\n");

/** pflag's Value for featureGate: repeating the flag adds pairs. */
export const featureGatesFlag: FlagType<Record<string, boolean>> = {
  name: "mapStringBool",
  isList: true,
  parse: parseFeatureGates,
  format: (settings) =>
    Object.entries(settings)
      .map(([name, enabled]) => `${name}=${enabled}`)
      .sort()
      .join(","),
};
