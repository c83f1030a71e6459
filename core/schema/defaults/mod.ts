/**
 * kube's defaulting (SetDefaults_<Kind> of the 1.26 API packages and the generated walkers that reach
 * nested structs), applied to written objects before validation. One file per API group.
 *
 * The generated schemas' `default:` values need no pass of their own: the only meaningful ones
 * (ContainerPort and ServicePort protocol TCP) are kube's Go defaults below; the rest (`{}`, `""`,
 * `0`, `false` on required or struct fields) are documentation artifacts kube never materializes.
 */
import type { KubeObject } from "../../api/types.ts";
import type { ResourceType } from "../../api/resource-type.ts";
import { ADMISSION_REGISTRATION_DEFAULTERS } from "./admissionregistration.ts";
import { API_EXTENSIONS_DEFAULTERS } from "./apiextensions.ts";
import { API_REGISTRATION_DEFAULTERS } from "./apiregistration.ts";
import { APPS_DEFAULTERS } from "./apps.ts";
import { AUTOSCALING_DEFAULTERS, AUTOSCALING_V1_DEFAULTERS } from "./autoscaling.ts";
import { BATCH_DEFAULTERS } from "./batch.ts";
import { CORE_DEFAULTERS } from "./core.ts";
import { DISCOVERY_DEFAULTERS } from "./discovery.ts";
import { FLOWCONTROL_DEFAULTERS, FLOWCONTROL_V1BETA3_DEFAULTERS } from "./flowcontrol.ts";
import { NETWORKING_DEFAULTERS } from "./networking.ts";
import { POLICY_V1BETA1_DEFAULTERS } from "./policy.ts";
import { RBAC_DEFAULTERS } from "./rbac.ts";
import { SCHEDULING_DEFAULTERS } from "./scheduling.ts";
import { STORAGE_DEFAULTERS } from "./storage.ts";
import type { Defaulter, KindDefaulters } from "./_registry.ts";

/** Every group's defaulters, by group/version and kind. */
export const DEFAULTERS: readonly KindDefaulters[] = [
  CORE_DEFAULTERS,
  APPS_DEFAULTERS,
  BATCH_DEFAULTERS,
  ADMISSION_REGISTRATION_DEFAULTERS,
  API_REGISTRATION_DEFAULTERS,
  API_EXTENSIONS_DEFAULTERS,
  AUTOSCALING_DEFAULTERS,
  AUTOSCALING_V1_DEFAULTERS,
  DISCOVERY_DEFAULTERS,
  FLOWCONTROL_DEFAULTERS,
  FLOWCONTROL_V1BETA3_DEFAULTERS,
  NETWORKING_DEFAULTERS,
  POLICY_V1BETA1_DEFAULTERS,
  RBAC_DEFAULTERS,
  SCHEDULING_DEFAULTERS,
  STORAGE_DEFAULTERS,
];

const BY_KIND: ReadonlyMap<string, Defaulter> = new Map(
  DEFAULTERS.flatMap(({ group, version, kinds }) => Object.entries(kinds).map(([kind, fill]) => [`${group}/${version}/${kind}`, fill])),
);

/** Fills in kube's defaults for `type`'s kind in place; kinds kube does not default are left as they are. */
export function applyDefaults(type: ResourceType, obj: KubeObject): void {
  BY_KIND.get(`${type.group}/${type.version}/${type.kind}`)?.(obj);
}
export { imageTag } from "./image-pull-policy.ts";
