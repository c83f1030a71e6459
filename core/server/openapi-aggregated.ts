/**
 * Aggregated servers' OpenAPI in this server's documents (kube-aggregator's OpenAPI aggregation): their v2 paths
 * and definitions join /openapi/v2 (this server's own win on a clash), and their group/version documents join the
 * /openapi/v3 index, served as downloaded.
 */
import type { AggregatedOpenApi } from "../aggregator/openapi-download.ts";
import { isPlainObject } from "../api/types.ts";

export interface AggregatedOpenApiSource {
  documents(): AggregatedOpenApi[];
  onChange(listener: () => void): void;
}

function withMissing(local: unknown, added: unknown): Record<string, unknown> {
  const merged = isPlainObject(local) ? { ...local } : {};
  if (!isPlainObject(added)) return merged;
  for (const [name, value] of Object.entries(added)) if (!(name in merged)) merged[name] = value;
  return merged;
}

export function withAggregatedV2(local: Record<string, unknown>, documents: AggregatedOpenApi[]): Record<string, unknown> {
  let merged = local;
  for (const { v2 } of documents) {
    if (!v2) continue;
    merged = { ...merged, paths: withMissing(merged.paths, v2.paths), definitions: withMissing(merged.definitions, v2.definitions) };
  }
  return merged;
}

/** The v3 documents of aggregated group/versions this server does not serve itself. */
export function aggregatedV3(documents: AggregatedOpenApi[], localKeys: string[]): Map<string, Record<string, unknown>> {
  const local = new Set(localKeys);
  const merged = new Map<string, Record<string, unknown>>();
  for (const { v3 } of documents) for (const [key, document] of v3) if (!local.has(key) && !merged.has(key)) merged.set(key, document);
  return merged;
}
