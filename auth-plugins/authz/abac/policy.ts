/**
 * The ABAC policy file (kube's pkg/auth/authorizer/abac NewFromFile): one JSON Policy per line; blank lines and
 * lines starting with `#` are skipped; `abac.authorization.kubernetes.io/v1beta1` policies are read as they are,
 * unversioned (v0) ones are migrated the way kube converts them.
 */

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

type Raw = Record<string, unknown>;

const text = (value: unknown): string => (typeof value === "string" ? value : "");

/** v1beta1: a `*` user or group means every authenticated subject. */
function fromV1beta1(spec: Raw): PolicySpec {
  const policy: PolicySpec = {
    user: text(spec.user),
    group: text(spec.group),
    readonly: spec.readonly === true,
    apiGroup: text(spec.apiGroup),
    namespace: text(spec.namespace),
    resource: text(spec.resource),
    nonResourcePath: text(spec.nonResourcePath),
  };
  if (policy.user === "*" || policy.group === "*") return { ...policy, user: "", group: ALL_AUTHENTICATED };
  return policy;
}

/** v0 had no API groups or paths: empty fields meant "everything", and an empty subject every authenticated one. */
function fromV0(raw: Raw): PolicySpec {
  const user = text(raw.user);
  const group = text(raw.group);
  const namespace = text(raw.namespace);
  const resource = text(raw.resource);
  const everyone = (user === "" && group === "") || user === "*" || group === "*";
  return {
    user: user === "*" ? "" : user,
    group: everyone ? ALL_AUTHENTICATED : group,
    readonly: raw.readonly === true,
    apiGroup: "*",
    namespace: namespace || "*",
    resource: resource || "*",
    nonResourcePath: namespace === "" && resource === "" ? "*" : "",
  };
}

function parsePolicy(line: string): PolicySpec {
  const raw = JSON.parse(line) as unknown;
  if (raw === null || typeof raw !== "object" || Array.isArray(raw)) throw new Error("a policy must be a JSON object");
  const object = raw as Raw;
  if (object.apiVersion === `${ABAC_GROUP}/v1beta1`) {
    if (object.kind !== "Policy") throw new Error(`unrecognized kind ${JSON.stringify(object.kind)}, expected Policy`);
    const spec = object.spec;
    return fromV1beta1(spec && typeof spec === "object" ? (spec as Raw) : {});
  }
  // Like kube, a line without a known version is read as an unversioned (v0) policy.
  return fromV0(object);
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
      throw new Error(`error reading policy file ${path}, line ${index + 1}: ${line}: ${(error as Error).message}`);
    }
  });
  return policies;
}
