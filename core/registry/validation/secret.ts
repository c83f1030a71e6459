/** v1 Secret (kube's ValidateSecret / ValidateSecretUpdate): keys, size, the keys each built-in type needs, `immutable`. */
import type { FieldError } from "../../api/errors.ts";
import type { KubeObject } from "../../api/types.ts";
import { Buffer } from "node:buffer";
import { immutable, invalid, invalidEach, record, required, text, tooLong } from "./_field.ts";
import { isConfigMapKey, MAX_DATA_SIZE } from "./_config-key.ts";
import { BOOTSTRAP_TOKEN_TYPE, validateBootstrapToken } from "./bootstrap-token.ts";
import { immutableDataErrors } from "./configmap.ts";

const REDACTED = "<secret contents redacted>";

function jsonError(bytes: Buffer): string | undefined {
  try {
    const parsed = JSON.parse(bytes.toString("utf8"));
    return typeof parsed === "object" && parsed !== null && !Array.isArray(parsed)
      ? undefined
      : "json: cannot unmarshal into Go value of type map[string]interface {}";
  } catch (e) {
    return (e as Error).message;
  }
}

function requiredKeys(type: string, data: Record<string, Buffer>, obj: KubeObject): FieldError[] {
  const has = (key: string) => Object.hasOwn(data, key);
  switch (type) {
    case "kubernetes.io/service-account-token":
      return text(obj.metadata.annotations?.["kubernetes.io/service-account.name"])
        ? []
        : [required("metadata.annotations[kubernetes.io/service-account.name]")];
    case "kubernetes.io/dockercfg":
    case "kubernetes.io/dockerconfigjson": {
      const key = type === "kubernetes.io/dockercfg" ? ".dockercfg" : ".dockerconfigjson";
      if (!has(key)) return [required(`data[${key}]`)];
      const problem = jsonError(data[key]);
      return problem ? [invalid(`data[${key}]`, REDACTED, problem)] : [];
    }
    case "kubernetes.io/basic-auth":
      return has("username") || has("password") ? [] : [required("data[username]"), required("data[password]")];
    case "kubernetes.io/ssh-auth":
      return (data["ssh-privatekey"]?.length ?? 0) > 0 ? [] : [required("data[ssh-privatekey]")];
    case "kubernetes.io/tls":
      return [...(has("tls.crt") ? [] : [required("data[tls.crt]")]), ...(has("tls.key") ? [] : [required("data[tls.key]")])];
    case BOOTSTRAP_TOKEN_TYPE:
      return validateBootstrapToken(obj, data);
    default:
      return [];
  }
}

export function validateSecret(obj: KubeObject): FieldError[] {
  const data = Object.fromEntries(Object.entries(record(obj.data)).map(([k, v]) => [k, Buffer.from(String(v ?? ""), "base64")]));
  const errors: FieldError[] = [];
  let size = 0;
  for (const [key, value] of Object.entries(data)) {
    errors.push(...invalidEach(`data[${key}]`, key, isConfigMapKey(key)));
    size += value.length;
  }
  if (size > MAX_DATA_SIZE) errors.push(tooLong("data", MAX_DATA_SIZE));
  return [...errors, ...requiredKeys(text(obj.type), data, obj)];
}

export function validateSecretUpdate(obj: KubeObject, old: KubeObject): FieldError[] {
  return [
    ...validateSecret(obj),
    ...immutable(text(obj.type) || "Opaque", text(old.type) || "Opaque", "type"),
    ...immutableDataErrors(obj, old, ["data"]),
  ];
}
