/**
 * The admission plugin SDK: the contract, typed built-in kinds, defineAdmissionPlugin, allow/deny/warn and the
 * offline fixture kit. Self-contained (nothing outside this folder is imported) so `kubun sdk init` can copy it.
 */
export type {
  AdmissionPlugin,
  AdmissionPluginContext,
  AdmissionPluginFactory,
  AdmissionRequest,
  KubeObject,
  ObjectReference,
  Operation,
  PluginLogger,
  ReadOnlyClient,
  ReinvocationContext,
  TypedObject,
  UserInfo,
  ValidationRequest,
} from "./contract.ts";
/** Every built-in kind (`Pod`, `Deployment`, ...); kinds two groups share are prefixed, e.g. `AutoscalingV2HorizontalPodAutoscaler`. */
export type * from "./kinds.gen.ts";
export { type AdmissionPluginDefinition, defineAdmissionPlugin, type ObjectFor } from "./define.ts";
export { allow, deny, type Verdict, warn } from "./verdict.ts";
export { type Fixture, type FixtureExpectation, type FixtureResult, runFixtures } from "./fixtures.ts";
export type { JsonPatchOperation } from "./json-patch.ts";
export { classifyThrown } from "./verdict.ts";
