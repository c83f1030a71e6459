/** Auditing (AdvancedAuditing): the policy, its checker, audit.k8s.io/v1 events and the log and webhook backends. */
export { type Auditing, buildAuditing } from "./build.ts";
export type { AuditAttributes, RequestAuditConfig } from "./checker.ts";
export {
  type AuditEvent,
  auditUser,
  epochMicrosAt,
  epochMicrosNow,
  microTime,
  microTimeNow,
  newEvent,
  type ResponseStatus,
} from "./event.ts";
export type { Stage } from "./policy.ts";
