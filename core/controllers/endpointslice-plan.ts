/**
 * Which EndpointSlices to create, update and delete so a Service's endpoints are covered (a simpler form of kube's
 * endpointslice reconciler): an endpoint stays in the slice that already holds it, new endpoints fill existing
 * slices of their port set up to the limit before new slices are made, emptied slices go, and a Service with no
 * endpoints keeps one placeholder slice without endpoints or ports.
 */
import { isDeepStrictEqual } from "node:util";
import type { KubeObject } from "../api/types.ts";
import { type EndpointGroup, endpointId, portsKey, type SliceEndpoint } from "./endpointslice-endpoints.ts";
import { compareIPv4 } from "./endpoint-subsets.ts";
import type { ResolvedPort } from "./_service-endpoints.ts";

/** kube-controller-manager's --max-endpoints-per-slice default. */
export const MAX_ENDPOINTS_PER_SLICE = 100;

/** The content of one slice; `existing` is the stored slice it replaces, absent for a new one. */
export interface SliceContent {
  existing?: KubeObject;
  ports: ResolvedPort[];
  endpoints: SliceEndpoint[];
}

export interface SlicePlan {
  /** Slices to create or to rewrite (content or metadata changed). */
  write: SliceContent[];
  delete: KubeObject[];
}

export interface PlanOptions {
  maxPerSlice?: number;
  /** Whether a stored slice's metadata (labels, owner) is already as wanted. */
  metadataCurrent: (slice: KubeObject) => boolean;
}

export function planSlices(groups: Map<string, EndpointGroup>, existing: KubeObject[], options: PlanOptions): SlicePlan {
  const max = options.maxPerSlice ?? MAX_ENDPOINTS_PER_SLICE;
  const usable = existing.filter((slice) => slice.addressType === "IPv4");
  const plan: SlicePlan = { write: [], delete: existing.filter((slice) => !usable.includes(slice)) };
  const placed = new Set<string>();
  const contents: SliceContent[] = [];
  for (const [key, group] of groups) {
    const desired = new Map(group.endpoints.map((endpoint) => [endpointId(endpoint), endpoint]));
    const own = usable.filter((slice) => portsKey(slice.ports as ResolvedPort[] | undefined) === key);
    // Keep each endpoint where it already is (once, should a crash have left it in two slices).
    const kept = own.map((slice) => ({ existing: slice, ports: group.ports, endpoints: keepEndpoints(slice, desired, placed) }));
    const waiting = [...desired.values()].filter((endpoint) => !placed.has(endpointId(endpoint)));
    for (const content of kept) while (content.endpoints.length < max && waiting.length > 0) content.endpoints.push(waiting.shift()!);
    for (let i = 0; i < waiting.length; i += max) contents.push({ ports: group.ports, endpoints: waiting.slice(i, i + max) });
    contents.push(...kept);
  }
  const claimed = new Set(contents.map((content) => content.existing));
  const filled = contents.filter((content) => content.endpoints.length > 0);
  const emptied = contents.filter((content) => content.endpoints.length === 0 && content.existing).map((content) => content.existing!);
  plan.delete.push(...emptied, ...usable.filter((slice) => !claimed.has(slice)));
  if (filled.length === 0) {
    // No endpoints at all: one placeholder, reusing a stored slice when there is one.
    const reused = plan.delete.find((slice) => usable.includes(slice));
    plan.delete = plan.delete.filter((slice) => slice !== reused);
    filled.push({ existing: reused, ports: [], endpoints: [] });
  }
  plan.write = filled.map(sortEndpoints).filter((content) => needsWrite(content, options));
  return plan;
}

function keepEndpoints(slice: KubeObject, desired: Map<string, SliceEndpoint>, placed: Set<string>): SliceEndpoint[] {
  const kept: SliceEndpoint[] = [];
  for (const stored of (slice.endpoints ?? []) as SliceEndpoint[]) {
    const id = endpointId(stored);
    const wanted = desired.get(id);
    if (!wanted || placed.has(id)) continue;
    placed.add(id);
    kept.push(wanted);
  }
  return kept;
}

function sortEndpoints(content: SliceContent): SliceContent {
  return { ...content, endpoints: byAddress(content.endpoints) };
}

function byAddress(endpoints: SliceEndpoint[]): SliceEndpoint[] {
  return [...endpoints].sort((a, b) => compareIPv4(a.addresses[0] ?? "", b.addresses[0] ?? ""));
}

function needsWrite(content: SliceContent, options: PlanOptions): boolean {
  const slice = content.existing;
  if (!slice) return true;
  return !options.metadataCurrent(slice) || !isDeepStrictEqual(byAddress((slice.endpoints ?? []) as SliceEndpoint[]), content.endpoints) ||
    !isDeepStrictEqual(slice.ports ?? [], content.ports);
}
