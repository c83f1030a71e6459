/**
 * --runtime-config (k8s.io/apiserver APIEnablementOptions.Validate and resourceconfig.MergeAPIResourceConfigs):
 * which built-in group/versions and resources are served. Keys are api/all, api/ga, api/beta, api/alpha,
 * <group>/<version> and <group>/<version>/<resource> (api/v1 is the core group, kube's legacy hack); a key without
 * a value means true. The answer is the set of built-in types to take out of the catalog, so every part that
 * reads the catalog (discovery, OpenAPI, routing) stops serving them together.
 */
import { parseGoBool } from "../api/query-params.ts";
import type { ResourceType } from "../api/resource-type.ts";

/** groupVersionMatchers, applied in groupVersionMatchersOrder. */
const MATCHERS: readonly [string, (version: string) => boolean][] = [
  ["api/all", () => true],
  ["api/ga", (version) => /^v\d+$/.test(version)],
  ["api/beta", (version) => /^v\d+beta\d+$/.test(version)],
  ["api/alpha", (version) => /^v\d+alpha\d+$/.test(version)],
];
const MATCHER_KEYS = new Set(MATCHERS.map(([key]) => key));

interface GroupVersion {
  group: string;
  version: string;
}

/** ParseGroupVersions' reading of a non-matcher key: "<group>/<version>[/<resource>]", "api/v1" being core v1. */
function groupVersionOf(key: string): { gv: GroupVersion; resource?: string } {
  const tokens = key.split("/");
  if (tokens.length !== 2 && tokens.length !== 3) throw new Error(`runtime-config invalid key ${key}`);
  const gv = tokens[0] === "api" && tokens[1] === "v1" ? { group: "", version: "v1" } : { group: tokens[0]!, version: tokens[1]! };
  if (gv.version === "") throw new Error(`runtime-config invalid key ${key}`);
  return { gv, resource: tokens[2] };
}

const gvString = (gv: GroupVersion) => (gv.group === "" ? gv.version : `${gv.group}/${gv.version}`);

/** getRuntimeConfigValue: "" is true, otherwise strconv.ParseBool. */
function enabledValue(key: string, value: string): boolean {
  if (value === "") return true;
  const parsed = parseGoBool(value);
  if (parsed === undefined) {
    throw new Error(`invalid value of ${key}: ${value}, err: strconv.ParseBool: parsing ${JSON.stringify(value)}: invalid syntax`);
  }
  return parsed;
}

/**
 * The built-in types --runtime-config turns off, or kube's start-up error. Versions kubun does not serve count
 * as not registered.
 */
export function disabledBuiltIns(builtIns: readonly ResourceType[], overrides: Readonly<Record<string, string>>): ResourceType[] {
  const keys = Object.keys(overrides);
  if (keys.length === 0) return [];
  // APIEnablementOptions.Validate
  if (overrides["api/all"] === "false" && keys.length === 1) throw new Error("invalid key with only api/all=false");
  const parsed = keys.filter((key) => !MATCHER_KEYS.has(key)).map((key) => ({ key, ...groupVersionOf(key) }));
  const groups = new Set(builtIns.map((type) => type.group));
  const unknown = parsed.map(({ gv }) => gv.group).filter((group) => !groups.has(group));
  if (unknown.length > 0) throw new Error(`unknown api groups ${unknown.join(",")}`);

  // MergeAPIResourceConfigs: matchers, then group/version preferences, then resource preferences.
  const versionEnabled = new Map<string, boolean>();
  for (const [key, matches] of MATCHERS) {
    if (!Object.hasOwn(overrides, key)) continue;
    const value = overrides[key];
    if (value !== "true" && value !== "false") throw new Error(`invalid value ${key}=${value}`);
    for (const type of builtIns) if (matches(type.version)) versionEnabled.set(gvString(type), value === "true");
  }
  const resourceEnabled = new Map<string, boolean>();
  const registered = new Set(builtIns.map((type) => gvString(type)));
  for (const { key, gv, resource } of parsed) {
    if (!registered.has(gvString(gv))) throw new Error(`group version ${gvString(gv)} that has not been registered`);
    const enabled = enabledValue(key, overrides[key]!);
    if (resource === undefined) {
      versionEnabled.set(gvString(gv), enabled);
    } else {
      if (resource.toLowerCase() !== resource) {
        throw new Error(
          `invalid key ${key}: group/version/resource and resource is always lowercase plural, not ${JSON.stringify(resource)}`,
        );
      }
      resourceEnabled.set(`${gvString(gv)}/${resource}`, enabled);
    }
  }
  return builtIns.filter((type) => {
    const gv = gvString(type);
    return !(resourceEnabled.get(`${gv}/${type.resource}`) ?? versionEnabled.get(gv) ?? true);
  });
}
