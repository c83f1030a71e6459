/**
 * kubun's keys `/<group or "core">/<resource>/<rest>` ↔ kube-apiserver 1.26's etcd keys `/<resource prefix>/<rest>`
 * (below --etcd-prefix), `<rest>` being `<namespace>/<name>`, `<name>` or a collection prefix's tail.
 */
import type { KeyLayout } from "../layout.ts";
import { KUBE_STORED_RESOURCES, RANGE_ALLOCATIONS } from "./resources.ts";

/** kubun's own keys start "/_" (no kube prefix does): the allocators' ranges are kube's, any others keep their key. */
const KUBUN_PRIVATE = "/_";

function swapPrefix(key: string, from: string, to: string): string | undefined {
  return key.startsWith(from) ? `${to}${key.slice(from.length)}` : undefined;
}

const kubunByPrefix = new Map(Object.entries(KUBE_STORED_RESOURCES).map(([kubun, stored]) => [stored.prefix, kubun]));

/** `/<a>/<b>/<rest>` → ["<a>/<b>", "<rest>"], or undefined for a key with fewer than two segments. */
function splitTwoSegments(key: string): [string, string] | undefined {
  const first = key.indexOf("/", 1);
  const second = first < 0 ? -1 : key.indexOf("/", first + 1);
  if (first < 0 || second < 0) return undefined;
  return [key.slice(1, second), key.slice(second + 1)];
}

/**
 * kube's ResourcePrefix for a kubun `<group>/<resource>`: the table's, else a custom resource's `<group>/<plural>`.
 * A dotless group is a built-in one (CRD groups hold a dot), so a stored built-in missing from the table is a bug.
 */
function backendPrefixOf(groupResource: string): string {
  const stored = KUBE_STORED_RESOURCES[groupResource];
  if (stored !== undefined) return stored.prefix;
  if (!groupResource.slice(0, groupResource.indexOf("/")).includes(".")) {
    throw new Error(`no kube storage prefix is known for the built-in resource ${groupResource}`);
  }
  return groupResource;
}

/** A backend prefix is a kube prefix of one segment (`pods`) or two (`services/specs`, `<group>/<plural>`). */
function kubunGroupResourceOf(backendKey: string): [string, string] | undefined {
  const one = backendKey.indexOf("/", 1);
  if (one < 0) return undefined;
  const single = kubunByPrefix.get(backendKey.slice(1, one));
  if (single !== undefined) return [single, backendKey.slice(one + 1)];
  const parts = splitTwoSegments(backendKey);
  if (parts === undefined) return undefined;
  const known = kubunByPrefix.get(parts[0]);
  if (known !== undefined) return [known, parts[1]];
  // A custom resource: CRD groups always hold a dot, and a built-in's own group/resource is not its backend prefix.
  const group = parts[0].slice(0, parts[0].indexOf("/"));
  if (!group.includes(".") || parts[0] in KUBE_STORED_RESOURCES) return undefined;
  return parts;
}

/** The key kube's etcd health check reads (newETCD3Check: `<prefix>/health`); no object lives there. */
const HEALTH_KEY = "/health";

export function kubeKeyLayout(): KeyLayout {
  return {
    toBackendKey(key) {
      const range = swapPrefix(key, RANGE_ALLOCATIONS.kubunPrefix, RANGE_ALLOCATIONS.backendPrefix);
      if (range !== undefined) return range;
      if (key === "/" || key === HEALTH_KEY || key.startsWith(KUBUN_PRIVATE)) return key;
      const parts = splitTwoSegments(key);
      if (parts === undefined) throw new Error(`kube's key layout maps keys and prefixes of a resource, not ${JSON.stringify(key)}`);
      return `/${backendPrefixOf(parts[0])}/${parts[1]}`;
    },
    fromBackendKey(backendKey) {
      const range = swapPrefix(backendKey, RANGE_ALLOCATIONS.backendPrefix, RANGE_ALLOCATIONS.kubunPrefix);
      if (range !== undefined) return range;
      if (backendKey.startsWith(KUBUN_PRIVATE)) return backendKey;
      const parts = kubunGroupResourceOf(backendKey);
      return parts === undefined ? undefined : `/${parts[0]}/${parts[1]}`;
    },
  };
}
