/** Test helper: reads the resource table of spec section 2.13 into entries the catalog must match. */

export interface SpecCatalogEntry {
  group: string;
  version: string;
  resource: string;
  shortNames: string[];
  namespaced: boolean;
  kind?: string;
}

const ITEM = /([a-z]+)(?:\s+`([^`]+)`)?(?:\s+\(([^)]*)\))?/g;

/** Items such as "cronjobs `cj`, jobs (ns)": a parenthesis gives scope/kind/version to the items before it. */
function parseItems(text: string, group: string, defaultVersion: string): SpecCatalogEntry[] {
  const entries: SpecCatalogEntry[] = [];
  let pending: SpecCatalogEntry[] = [];
  for (const [, resource, shortNames, details] of text.matchAll(ITEM)) {
    pending.push({
      group,
      version: defaultVersion,
      resource,
      shortNames: shortNames ? shortNames.split(",") : [],
      namespaced: false,
    });
    if (details === undefined) continue;
    for (const detail of details.split(",").map((part) => part.trim())) {
      for (const entry of pending) {
        if (detail === "ns" || detail === "cluster") entry.namespaced = detail === "ns";
        else if (/^v\d/.test(detail)) entry.version = detail;
        else entry.kind = detail;
      }
    }
    entries.push(...pending);
    pending = [];
  }
  return entries;
}

/** Every resource type spec 2.13 lists, with {api_domain} resolved to k8s.io. */
export function parseSpecCatalog(specText: string): SpecCatalogEntry[] {
  const start = specText.indexOf("### 2.13");
  const section = specText.slice(start, specText.indexOf("### 2.14", start)).replaceAll("{api_domain}", "k8s.io");
  const entries: SpecCatalogEntry[] = [];
  for (const line of section.split("\n")) {
    const core = /^Core group `(v\d+)`: (.*)$/.exec(line);
    if (core) entries.push(...parseItems(core[2], "", core[1]));
    const named = /^- `([^`/]+)(?:\/([^`]+))?`: (.*)$/.exec(line);
    if (named) entries.push(...parseItems(named[3], named[1], named[2] ?? "v1"));
  }
  return entries;
}
