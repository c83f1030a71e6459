/**
 * The ABAC policy file (kube's pkg/auth/authorizer/abac NewFromFile): one JSON Policy per line; blank lines and
 * lines starting with `#` are skipped; `abac.authorization.kubernetes.io/v1beta1` policies are read as they are,
 * unversioned (v0) ones are migrated the way kube converts them.
 */
import * as v from "valibot";
import { parseConfig } from "../../../core/config/mod.ts";

export const ABAC_GROUP = "abac.authorization.kubernetes.io";
const ALL_AUTHENTICATED = "system:authenticated";

export interface PolicySpec {
  user: string;
  group: string;
  readonly: boolean;
  apiGroup: string;
  namespace: string;
  resource: string;
  nonResourcePath: string;
}

const text = v.optional(v.string(), "");
const readonly = v.optional(v.boolean(), false);

const V1BETA1_POLICY = v.looseObject({
  apiVersion: v.literal(`${ABAC_GROUP}/v1beta1`),
  kind: v.literal("Policy"),
  spec: v.optional(
    v.looseObject({ user: text, group: text, readonly, apiGroup: text, namespace: text, resource: text, nonResourcePath: text }),
    {},
  ),
});

const V0_POLICY = v.looseObject({ user: text, group: text, readonly, namespace: text, resource: text });

/** v1beta1: a `*` user or group means every authenticated subject. */
function fromV1beta1(spec: PolicySpec): PolicySpec {
  if (spec.user === "*" || spec.group === "*") return { ...spec, user: "", group: ALL_AUTHENTICATED };
  return spec;
}

/** v0 had no API groups or paths: empty fields meant "everything", and an empty subject every authenticated one. */
function fromV0({ user, group, readonly, namespace, resource }: v.InferOutput<typeof V0_POLICY>): PolicySpec {
  const everyone = (user === "" && group === "") || user === "*" || group === "*";
  return {
    user: user === "*" ? "" : user,
    group: everyone ? ALL_AUTHENTICATED : group,
    readonly,
    apiGroup: "*",
    namespace: namespace || "*",
    resource: resource || "*",
    nonResourcePath: namespace === "" && resource === "" ? "*" : "",
  };
}

function parsePolicy(line: string): PolicySpec {
  const raw = JSON.parse(line) as unknown;
  if (raw === null || typeof raw !== "object" || Array.isArray(raw)) throw new Error("a policy must be a JSON object");
  if ((raw as { apiVersion?: unknown }).apiVersion === `${ABAC_GROUP}/v1beta1`) {
    return fromV1beta1(parseConfig(V1BETA1_POLICY, raw, "Policy").spec);
  }
  // Like kube, a line without a known version is read as an unversioned (v0) policy.
  return fromV0(parseConfig(V0_POLICY, raw, "Policy"));
}

/** Every policy in the file's text; a bad line fails with kube's message naming the file and line. */
export function parsePolicyFile(content: string, path: string): PolicySpec[] {
  const policies: PolicySpec[] = [];
  content.split("\n").forEach((line, index) => {
    const trimmed = line.trim();
    if (trimmed === "" || trimmed.startsWith("#")) return;
    try {
      policies.push(parsePolicy(line));
    } catch (error) {
      throw new Error(`error reading policy file ${path}, line ${index + 1}: ${line}: ${(error as Error).message}`, { cause: error });
    }
  });
  return policies;
}
