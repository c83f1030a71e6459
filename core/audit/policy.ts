/**
 * The --audit-policy-file: an audit.k8s.io/v1 Policy read and checked as kube's LoadPolicyFromFile
 * (k8s.io/apiserver pkg/audit/policy/reader.go) and ValidatePolicy (pkg/apis/audit/validation). A bad file
 * stops start-up with kube's messages.
 */
import { readFile } from "node:fs/promises";
import { parse } from "yaml";
import * as v from "valibot";
import { ConfigFileError, invalid, parseConfig } from "../config/mod.ts";
import { isDNS1123Subdomain } from "../api/names.ts";
import { isPlainObject } from "../api/types.ts";

export const LEVELS = ["None", "Metadata", "Request", "RequestResponse"] as const;
export type Level = (typeof LEVELS)[number];
export const STAGES = ["RequestReceived", "ResponseStarted", "ResponseComplete", "Panic"] as const;
export type Stage = (typeof STAGES)[number];

/** kube reads v1 and the deprecated v1beta1/v1alpha1 (apiGroupVersions in reader.go). */
const API_VERSIONS = new Set(["audit.k8s.io/v1", "audit.k8s.io/v1beta1", "audit.k8s.io/v1alpha1"]);

const strings = v.optional(v.array(v.string()), []);

/** validateOmitStages: each stage must be one of kube's four. */
const omitStages = v.optional(
  v.array(
    v.pipe(
      v.string(),
      v.check(
        (stage) => (STAGES as readonly string[]).includes(stage),
        invalid(`allowed stages are ${STAGES.join(",")}`),
      ),
    ),
  ),
  [],
);

/** validateLevel: required, then one of the four levels (field.NotSupported). */
const level = v.pipe(
  v.string(),
  v.check((text) => text !== "", "Required value"),
  v.check(
    (text) => text === "" || (LEVELS as readonly string[]).includes(text),
    (issue) => `Unsupported value: ${JSON.stringify(issue.input)}: supported values: ${LEVELS.map((l) => JSON.stringify(l)).join(", ")}`,
  ),
);

/** validateNonResourceURLs: `*`, or a path starting with `/` whose only `*` is the last character. */
const nonResourceUrl = v.pipe(
  v.string(),
  v.check(
    (url) => url === "*" || url.startsWith("/"),
    invalid("non-resource URL rules must begin with a '/' character"),
  ),
  v.check(
    (url) => url === "*" || url === "" || !url.slice(0, -1).includes("*"),
    invalid("non-resource URL wildcards '*' must be the final character of the rule"),
  ),
);

const groupResources = v.pipe(
  v.object({ group: v.optional(v.string(), ""), resources: strings, resourceNames: strings }),
  v.forward(
    // kube's NameIsDNSSubdomain on the group, with its messages.
    v.check((gr) => gr.group === "" || isDNS1123Subdomain(gr.group).length === 0, (issue) => {
      const group = (issue.input as { group: string }).group;
      return `Invalid value: ${JSON.stringify(group)}: ${isDNS1123Subdomain(group).join(", ")}`;
    }),
    ["group"],
  ),
  v.forward(
    v.check(
      (gr) => gr.resourceNames.length === 0 || gr.resources.length > 0,
      (issue) =>
        `Invalid value: ${
          JSON.stringify((issue.input as { resourceNames: string[] }).resourceNames)
        }: using resourceNames requires at least one resource`,
    ),
    ["resourceNames"],
  ),
);

const rule = v.pipe(
  v.object({
    level: v.optional(level, ""),
    users: strings,
    userGroups: strings,
    verbs: strings,
    resources: v.optional(v.array(groupResources), []),
    namespaces: strings,
    nonResourceURLs: v.optional(v.array(nonResourceUrl), []),
    omitStages,
    omitManagedFields: v.optional(v.boolean()),
  }),
  v.forward(
    v.check(
      (r) => r.nonResourceURLs.length === 0 || (r.resources.length === 0 && r.namespaces.length === 0),
      (issue) =>
        `Invalid value: ${
          JSON.stringify((issue.input as { nonResourceURLs: string[] }).nonResourceURLs)
        }: rules cannot apply to both regular resources and non-resource URLs`,
    ),
    ["nonResourceURLs"],
  ),
);

const POLICY = v.object({
  rules: v.optional(v.array(rule), []),
  omitStages,
  omitManagedFields: v.optional(v.boolean(), false),
});

export type Policy = v.InferOutput<typeof POLICY>;
export type PolicyRule = Policy["rules"][number];

/** The policy in a file, or a ConfigFileError worded as kube-apiserver's start-up failure. */
export async function loadPolicyFile(path: string): Promise<Policy> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    throw new ConfigFileError(`failed to read file path ${JSON.stringify(path)}: ${(error as Error).message}`, { cause: error });
  }
  try {
    return parsePolicy(text);
  } catch (error) {
    throw new ConfigFileError(`${(error as Error).message}: from file ${path}`, { cause: error });
  }
}

/** LoadPolicyFromBytes: decode, require a known apiVersion and kind Policy, validate, require at least one rule. */
export function parsePolicy(text: string): Policy {
  let document: unknown;
  try {
    document = parse(text);
  } catch (error) {
    throw new Error(`failed decoding: ${(error as Error).message}`, { cause: error });
  }
  if (!isPlainObject(document)) throw new Error("failed decoding: Object 'Kind' is missing");
  const { apiVersion, kind, metadata: _metadata, ...body } = document;
  if (typeof kind !== "string" || kind === "") throw new Error(`failed decoding: Object 'Kind' is missing in '${text.trim()}'`);
  if (typeof apiVersion !== "string" || !API_VERSIONS.has(apiVersion) || kind !== "Policy") {
    throw new Error(`unknown group version field ${String(apiVersion ?? "")}, Kind=${kind} in policy`);
  }
  let policy: Policy;
  try {
    policy = parseConfig(POLICY, body, "policy");
  } catch (error) {
    // kube reports the aggregated field errors alone; LoadPolicyFromFile appends the file.
    throw new Error((error as Error).message.replace(/^policy: /, ""));
  }
  if (policy.rules.length === 0) throw new Error("loaded illegal policy with 0 rules");
  return policy;
}
