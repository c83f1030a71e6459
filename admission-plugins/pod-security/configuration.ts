/**
 * PodSecurity's section of --admission-control-config-file: kube's PodSecurityConfiguration
 * (pod-security.admission.config.k8s.io v1, v1beta1, v1alpha1) with `defaults` per mode and `exemptions`, checked
 * as kube's ValidatePodSecurityConfiguration and defaulted as its SetDefaults (privileged:latest, no exemptions).
 */
import * as v from "valibot";
import { nameIsDNSLabel, nameIsDNSSubdomain, type NameValidator } from "../../core/api/names.ts";
import { duplicate, invalid, parseConfig } from "../../core/config/mod.ts";
import { MODES, type NamespacePolicy, parseLevel, parseVersion } from "./policy.ts";

export interface PodSecurityConfiguration {
  defaults: NamespacePolicy;
  exemptions: { usernames: Set<string>; namespaces: Set<string>; runtimeClasses: Set<string> };
}

const API_VERSIONS = ["v1", "v1beta1", "v1alpha1"].map((version) => `pod-security.admission.config.k8s.io/${version}`);

// kube's api.ParseLevel and api.ParseVersion errors.
const level = v.optional(
  v.pipe(v.string(), v.check((text) => parseLevel(text) !== undefined, invalid("must be one of privileged, baseline, restricted"))),
  "privileged",
);
const version = v.optional(
  v.pipe(v.string(), v.check((text) => parseVersion(text) !== undefined, invalid('must be "latest" or "v1.x"'))),
  "latest",
);

/** kube's field.Invalid for a name its validator refuses (messages joined as kube does). */
const validName = (validator: NameValidator) => (name: string) => {
  const problems = validator(name, false);
  return problems.length > 0 ? `Invalid value: ${JSON.stringify(name)}: ${problems.join(", ")}` : undefined;
};

/** A list of distinct entries, each without a `problem`. */
const distinct = (problem: (entry: string) => string | undefined) =>
  v.optional(
    v.pipe(
      v.array(v.string()),
      v.rawCheck(({ dataset, addIssue }) => {
        if (!dataset.typed) return;
        dataset.value.forEach((entry, index, all) => {
          const path: [v.ArrayPathItem] = [{ type: "array", origin: "value", input: all, key: index, value: entry }];
          const message = problem(entry) ??
            (all.indexOf(entry) !== index ? duplicate({ input: entry } as v.BaseIssue<unknown>) : undefined);
          if (message) addIssue({ message, path });
        });
      }),
    ),
    [],
  );

const POD_SECURITY_CONFIGURATION = v.looseObject({
  apiVersion: v.optional(v.picklist(API_VERSIONS)),
  kind: v.optional(v.literal("PodSecurityConfiguration")),
  defaults: v.optional(
    v.looseObject({
      enforce: level,
      "enforce-version": version,
      audit: level,
      "audit-version": version,
      warn: level,
      "warn-version": version,
    }),
    {},
  ),
  exemptions: v.optional(
    v.looseObject({
      usernames: distinct((name) => (name === "" ? "Required value" : undefined)),
      namespaces: distinct(validName(nameIsDNSLabel)),
      runtimeClasses: distinct(validName(nameIsDNSSubdomain)),
    }),
    {},
  ),
});

/** The configuration, or kube's built-in one (privileged:latest everywhere, no exemptions) when absent. */
export function readPodSecurityConfiguration(section: unknown): PodSecurityConfiguration {
  const config = parseConfig(POD_SECURITY_CONFIGURATION, section ?? {}, "PodSecurityConfiguration");
  const defaults = Object.fromEntries(
    MODES.map((mode) => [mode, { level: parseLevel(config.defaults[mode])!, version: parseVersion(config.defaults[`${mode}-version`])! }]),
  ) as NamespacePolicy;
  const { usernames, namespaces, runtimeClasses } = config.exemptions;
  return {
    defaults,
    exemptions: { usernames: new Set(usernames), namespaces: new Set(namespaces), runtimeClasses: new Set(runtimeClasses) },
  };
}
