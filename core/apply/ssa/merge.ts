/**
 * Merges an applied configuration into the live object (structured-merge-diff's TypedValue.Merge): the
 * configuration wins on scalars and atomic values, maps merge key by key, keyed lists and sets merge item by
 * item with structured-merge-diff's ordering (live-only items keep their place, the applied order wins otherwise).
 */
import { isPlainObject } from "../../api/types.ts";
import { indexItems, keyType } from "./_items.ts";
import { fieldElement, type PathElement } from "./path-element.ts";
import { isGranular, type ListType, resolveType, type TypeNode } from "./schema-type.ts";
import { ownMember, setMember } from "../../api/json-member.ts";

export function mergeValues(live: unknown, config: unknown, type: TypeNode, path: PathElement[] = []): unknown {
  if (config === undefined) return live;
  if (live === undefined) return config;
  const resolved = resolveType(type, config);
  if (!isGranular(resolved)) return config;
  if (resolved.kind === "list") return mergeLists(live, config, resolved, path);
  if (!isPlainObject(live) || !isPlainObject(config)) return config;
  const out: Record<string, unknown> = { ...live };
  for (const [key, value] of Object.entries(config)) {
    // An applied null owns the field and leaves it unset, as Go's decoding of the merged object does.
    if (value === null) {
      delete out[key];
      continue;
    }
    setMember(out, key, mergeValues(ownMember(live, key), value, keyType(resolved, key, path), [...path, fieldElement(key)]));
  }
  return out;
}

function mergeLists(live: unknown, config: unknown, type: ListType, path: PathElement[]): unknown {
  if (!Array.isArray(config)) return config;
  const liveItems = indexItems(type, live, path);
  const configItems = indexItems(type, config, path);
  const liveOrder = [...liveItems.keys()];
  const configOrder = [...configItems.keys()];
  const merge = (element: PathElement) => mergeValues(liveItems.get(element), configItems.get(element), type.element, [...path, element]);
  // Items in both, in the applied order: each live item that sits in another shared item's turn waits.
  const shared = configOrder.filter((e) => liveItems.has(e));
  const out: unknown[] = [];
  let l = 0;
  let c = 0;
  let nextShared = 0;
  while (l < liveOrder.length || c < configOrder.length) {
    if (l < liveOrder.length && c < configOrder.length && liveOrder[l] === configOrder[c]) {
      out.push(merge(liveOrder[l]));
      l++;
      c++;
      nextShared++;
      continue;
    }
    if (l < liveOrder.length) {
      const element = liveOrder[l];
      if (!configItems.has(element)) {
        out.push(merge(element));
        l++;
        continue;
      }
      if (nextShared < shared.length && shared[nextShared] !== element) {
        // A shared item whose turn has not come: it is emitted where the configuration puts it.
        l++;
        continue;
      }
    }
    if (c < configOrder.length) {
      const element = configOrder[c];
      out.push(merge(element));
      c++;
      if (nextShared < shared.length && shared[nextShared] === element) nextShared++;
    } else {
      l++;
    }
  }
  return out;
}
