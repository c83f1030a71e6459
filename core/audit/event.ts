/**
 * audit.k8s.io/v1 Event: built from a request as kube's LogRequestMetadata (pkg/audit/request.go), with
 * fields in the v1 type's order so a JSON line reads as kube's; MicroTime stamps carry 6 fractional digits.
 */
import { isIP } from "node:net";
import type { Level, Stage } from "./policy.ts";
import type { AuditAttributes } from "./checker.ts";

export interface AuditUser {
  username: string;
  uid?: string;
  groups?: string[];
  extra?: Record<string, string[]>;
}

export interface ObjectReference {
  resource?: string;
  namespace?: string;
  name?: string;
  uid?: string;
  apiGroup?: string;
  apiVersion?: string;
  resourceVersion?: string;
  subresource?: string;
}

/** The bounded part of a metav1.Status kube copies into responseStatus. */
export interface ResponseStatus {
  metadata: Record<string, never>;
  status?: string;
  message?: string;
  reason?: string;
  details?: unknown;
  code?: number;
}

export interface AuditEvent {
  kind: "Event";
  apiVersion: "audit.k8s.io/v1";
  level: Level;
  auditID: string;
  stage: Stage;
  requestURI: string;
  verb: string;
  user: AuditUser;
  impersonatedUser?: AuditUser;
  sourceIPs?: string[];
  userAgent?: string;
  objectRef?: ObjectReference;
  responseStatus?: ResponseStatus;
  requestObject?: unknown;
  responseObject?: unknown;
  requestReceivedTimestamp: string;
  stageTimestamp: string;
  annotations?: Record<string, string>;
}

const MAX_USER_AGENT_LENGTH = 1024;

export interface RequestFacts {
  auditID: string;
  level: Level;
  /** Path and query as sent (kube's req.URL.RequestURI()). */
  requestURI: string;
  headers: Headers;
  remoteAddress?: string;
  attributes: AuditAttributes & { apiVersion: string; user?: AuditUser };
  receivedAt: string;
}

/** NewEventFromRequest/LogRequestMetadata: the fields known before the request is handled. */
export function newEvent(facts: RequestFacts): AuditEvent {
  const a = facts.attributes;
  let userAgent = facts.headers.get("user-agent") ?? "";
  if (userAgent.length > MAX_USER_AGENT_LENGTH) userAgent = `${userAgent.slice(0, MAX_USER_AGENT_LENGTH)}...TRUNCATED`;
  const event: AuditEvent = {
    kind: "Event",
    apiVersion: "audit.k8s.io/v1",
    level: facts.level,
    auditID: facts.auditID,
    stage: "RequestReceived",
    requestURI: facts.requestURI,
    verb: a.verb,
    // authnv1.UserInfo omits empty fields: an unauthenticated request has `user: {}`.
    user: a.user ? auditUser(a.user) : ({} as AuditUser),
    sourceIPs: sourceIPs(facts.headers, facts.remoteAddress),
    userAgent: userAgent || undefined,
    requestReceivedTimestamp: facts.receivedAt,
    stageTimestamp: facts.receivedAt,
  };
  if (a.isResourceRequest) {
    event.objectRef = withoutEmpty({
      resource: a.resource,
      namespace: a.namespace,
      name: a.name,
      apiGroup: a.apiGroup,
      apiVersion: a.apiVersion,
      subresource: a.subresource,
    });
  }
  return event;
}

/**
 * The event as audit.k8s.io/v1 serializes it: the type's field order, whatever order the chain filled it in
 * (JSON.stringify leaves out the fields that are undefined). It runs for every stage of every audited request,
 * hence one object literal rather than a walk over field names.
 */
export function eventJson(event: AuditEvent): string {
  const ref = event.objectRef;
  return JSON.stringify({
    kind: event.kind,
    apiVersion: event.apiVersion,
    level: event.level,
    auditID: event.auditID,
    stage: event.stage,
    requestURI: event.requestURI,
    verb: event.verb,
    user: event.user,
    impersonatedUser: event.impersonatedUser,
    sourceIPs: event.sourceIPs,
    userAgent: event.userAgent,
    // ObjectReference's fields are omitempty.
    objectRef: ref && {
      resource: ref.resource || undefined,
      namespace: ref.namespace || undefined,
      name: ref.name || undefined,
      uid: ref.uid || undefined,
      apiGroup: ref.apiGroup || undefined,
      apiVersion: ref.apiVersion || undefined,
      resourceVersion: ref.resourceVersion || undefined,
      subresource: ref.subresource || undefined,
    },
    responseStatus: event.responseStatus,
    requestObject: event.requestObject,
    responseObject: event.responseObject,
    requestReceivedTimestamp: event.requestReceivedTimestamp,
    stageTimestamp: event.stageTimestamp,
    annotations: event.annotations && sortedKeys(event.annotations),
  });
}

/** Go writes map keys sorted. */
function sortedKeys(map: Record<string, string>): Record<string, string> {
  const sorted: Record<string, string> = {};
  for (const key of Object.keys(map).sort()) sorted[key] = map[key]!;
  return sorted;
}

export function auditUser(user: AuditUser): AuditUser {
  return withoutEmpty({
    username: user.username,
    uid: user.uid,
    groups: user.groups?.length ? user.groups : undefined,
    extra: user.extra && Object.keys(user.extra).length > 0 ? user.extra : undefined,
  }) as AuditUser;
}

/** utilnet.SourceIPs: X-Forwarded-For entries, X-Real-Ip unless already listed, then the peer unless it is the last. */
export function sourceIPs(headers: Headers, remoteAddress: string | undefined): string[] {
  const ips: string[] = [];
  for (const part of (headers.get("x-forwarded-for") ?? "").split(",")) {
    const ip = normalizeIP(part.trim());
    if (ip) ips.push(ip);
  }
  const realIP = normalizeIP(headers.get("x-real-ip") ?? "");
  if (realIP && !ips.includes(realIP)) ips.push(realIP);
  const remote = normalizeIP(remoteAddress ?? "");
  if (remote && ips.at(-1) !== remote) ips.push(remote);
  return ips;
}

function normalizeIP(text: string): string | undefined {
  // Node reports IPv4 peers on dual-stack sockets as IPv4-mapped IPv6; Go prints them as IPv4.
  const plain = text.startsWith("::ffff:") && isIP(text.slice(7)) === 4 ? text.slice(7) : text;
  return isIP(plain) ? plain : undefined;
}

function withoutEmpty<T extends object>(value: T): T {
  const kept: Record<string, unknown> = {};
  for (const key in value) {
    const v = value[key];
    if (v !== undefined && v !== "") kept[key] = v;
  }
  return kept as T;
}

/** The whole seconds of the last stamp, so stamps within one second share their formatting. */
let lastSecond = { epochSecond: NaN, text: "" };

/** Microseconds since the Unix epoch, now: a timestamp kept as a number until something prints it. */
export function epochMicrosNow(): number {
  return epochMicrosAt(performance.now());
}

/** epochMicrosNow() of a performance.now() already read. */
export function epochMicrosAt(performanceNow: number): number {
  return Math.floor((performance.timeOrigin + performanceNow) * 1000);
}

/** A metav1.MicroTime now: RFC 3339 in UTC with exactly six fractional digits. */
export function microTimeNow(): string {
  return microTime(epochMicrosNow());
}

/** The metav1.MicroTime of `micros` (see epochMicrosNow). */
export function microTime(micros: number): string {
  const epochSecond = Math.floor(micros / 1_000_000);
  if (epochSecond !== lastSecond.epochSecond) lastSecond = { epochSecond, text: new Date(epochSecond * 1000).toISOString().slice(0, 19) };
  return `${lastSecond.text}.${String(micros % 1_000_000).padStart(6, "0")}Z`;
}
