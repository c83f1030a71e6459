import { createHash } from "node:crypto";

/**
 * kube's discovery storageVersionHash: base64 of the first 8 bytes of sha256("<group>/<version>/<Kind>")
 * of the version a resource is stored in (the core group is the empty string, so "/v1/Pod").
 */
export function storageVersionHash(group: string, version: string, kind: string): string {
  const digest = createHash("sha256").update(`${group}/${version}/${kind}`).digest();
  return digest.subarray(0, 8).toString("base64");
}
