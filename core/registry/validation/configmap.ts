/** v1 ConfigMap (kube's ValidateConfigMap / ValidateConfigMapUpdate): keys, 1 MiB total, `immutable`. */
import type { FieldError } from "../../api/errors.ts";
import type { KubeObject } from "../../api/types.ts";
import { byteLength } from "../../api/go-text.ts";
import { Buffer } from "node:buffer";
import { deepEqual, forbidden, invalid, invalidEach, record, tooLong } from "./_field.ts";
import { isConfigMapKey, MAX_DATA_SIZE } from "./_config-key.ts";

export const IMMUTABLE_WHEN_SET = "field is immutable when `immutable` is set";

export function validateConfigMap(obj: KubeObject): FieldError[] {
  const data = record(obj.data);
  const binary = record(obj.binaryData);
  const errors: FieldError[] = [];
  let size = 0;
  for (const key of Object.keys(data)) {
    const problems = isConfigMapKey(key);
    if (problems.length > 0) errors.push(...invalidEach(`data[${key}]`, key, problems));
    if (Object.hasOwn(binary, key)) errors.push(invalid(`data[${key}]`, key, "duplicate of key present in binaryData"));
    size += byteLength(String(data[key]));
  }
  for (const key of Object.keys(binary)) {
    const problems = isConfigMapKey(key);
    if (problems.length > 0) errors.push(...invalidEach(`binaryData[${key}]`, key, problems));
    if (Object.hasOwn(data, key)) errors.push(invalid(`binaryData[${key}]`, key, "duplicate of key present in data"));
    size += Buffer.from(String(binary[key]), "base64").length;
  }
  // kube reports the size on the empty path (field.NewPath(""), printed "[]"): the whole object is too big.
  if (size > MAX_DATA_SIZE) errors.push(tooLong("[]", MAX_DATA_SIZE));
  return errors;
}

/** Once `immutable: true` is stored it cannot be unset, and the listed data fields cannot change. */
export function immutableDataErrors(obj: KubeObject, old: KubeObject, fields: string[]): FieldError[] {
  if (old.immutable !== true) return [];
  const errors = obj.immutable === true ? [] : [forbidden("immutable", IMMUTABLE_WHEN_SET)];
  for (const field of fields) if (!deepEqual(obj[field] ?? {}, old[field] ?? {})) errors.push(forbidden(field, IMMUTABLE_WHEN_SET));
  return errors;
}

export function validateConfigMapUpdate(obj: KubeObject, old: KubeObject): FieldError[] {
  return [...immutableDataErrors(obj, old, ["data", "binaryData"]), ...validateConfigMap(obj)];
}
