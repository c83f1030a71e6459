/** Writes a status only when it differs, so a pass over a settled object writes nothing. */
import { isDeepStrictEqual } from "node:util";
import type { KubeObject } from "../../api/types.ts";
import type { ControllerClient, ResourceRef } from "./client.ts";

/** kube's status structs omit zero counts; dropping them keeps stored status and comparisons in kube's shape. */
export function withoutZeroCounts<T extends object>(status: T, keep: readonly string[] = []): T {
  return Object.fromEntries(Object.entries(status).filter(([k, v]) => v !== undefined && (v !== 0 || keep.includes(k)))) as T;
}

export async function writeStatusIfChanged(
  client: ControllerClient,
  ref: ResourceRef,
  obj: KubeObject,
  status: object,
  keep: readonly string[] = [],
): Promise<KubeObject> {
  const next = withoutZeroCounts(status, keep);
  if (isDeepStrictEqual(obj.status ?? {}, next)) return obj;
  return await client.updateStatus(ref, { ...obj, status: next });
}
