/**
 * Bootstrap token Secrets (spec 2.10). kube-apiserver itself does not check them; the rules follow the spec with
 * kube-style messages (field paths `data[<key>]`, values of the token secret never echoed).
 */
import type { FieldError } from "../../api/errors.ts";
import type { KubeObject } from "../../api/types.ts";
import type { Buffer } from "node:buffer";
import { invalid, notSupported, required, text } from "./_field.ts";

export const BOOTSTRAP_TOKEN_TYPE = "bootstrap.kubernetes.io/token";
const TOKEN_ID_RE = /^[a-z0-9]{6}$/;
const TOKEN_SECRET_RE = /^[a-z0-9]{16}$/;
const GROUP_RE = /^system:bootstrappers:[a-z0-9:-]{0,255}[a-z0-9]$/;
/** How kube's bootstrap token helpers print the group pattern. */
const GROUP_PATTERN = "\\Asystem:bootstrappers:[a-z0-9:-]{0,255}[a-z0-9]\\z";
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
const REDACTED = "<secret contents redacted>";

function validateUsage(key: string, value: string | undefined): FieldError[] {
  return value === undefined || value === "true" || value === "false" ? [] : [notSupported(`data[${key}]`, value, ["true", "false"])];
}

export function validateBootstrapToken(obj: KubeObject, data: Record<string, Buffer>): FieldError[] {
  const value = (key: string) => data[key]?.toString("utf8");
  const errors: FieldError[] = [];
  const tokenId = value("token-id");
  if (tokenId === undefined) errors.push(required("data[token-id]"));
  else if (!TOKEN_ID_RE.test(tokenId)) {
    errors.push(invalid("data[token-id]", tokenId, "must be 6 characters from [a-z0-9] (regex used for validation is '[a-z0-9]{6}')"));
  } else if (text(obj.metadata.name) !== `bootstrap-token-${tokenId}`) {
    errors.push(invalid("metadata.name", text(obj.metadata.name), `must be "bootstrap-token-${tokenId}" (bootstrap-token-<token-id>)`));
  }
  const secret = value("token-secret");
  if (secret === undefined) errors.push(required("data[token-secret]"));
  else if (!TOKEN_SECRET_RE.test(secret)) {
    errors.push(
      invalid("data[token-secret]", REDACTED, "must be 16 characters from [a-z0-9] (regex used for validation is '[a-z0-9]{16}')"),
    );
  }
  const expiration = value("expiration");
  if (expiration !== undefined && (!RFC3339.test(expiration) || Number.isNaN(Date.parse(expiration)))) {
    errors.push(invalid("data[expiration]", expiration, "must be an absolute UTC time in RFC 3339 format (e.g. '2017-01-02T15:04:05Z')"));
  }
  errors.push(...validateUsage("usage-bootstrap-authentication", value("usage-bootstrap-authentication")));
  errors.push(...validateUsage("usage-bootstrap-signing", value("usage-bootstrap-signing")));
  const groups = value("auth-extra-groups");
  for (const group of groups === undefined ? [] : groups.split(",")) {
    if (!GROUP_RE.test(group)) {
      errors.push(invalid("data[auth-extra-groups]", group, `bootstrap group "${group}" is invalid (must match ${GROUP_PATTERN})`));
    }
  }
  return errors;
}
