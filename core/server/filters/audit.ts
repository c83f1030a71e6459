/**
 * The audit step of the chain, kube's WithAudit and WithFailedAuthenticationAudit (k8s.io/apiserver
 * pkg/endpoints/filters/audit.go, authn_audit.go): right after authentication the policy picks the level; the
 * RequestReceived event is stored before anything else runs (a refusal to store it is a 500); long-running
 * requests get ResponseStarted when their response begins; every request ends with ResponseComplete, or Panic
 * when an exception that is no API error escaped. Request and response bodies are logged per level as
 * LogRequestObject/LogRequestPatch/LogResponseObject (pkg/audit/request.go).
 */
import { newInternalError } from "../../api/errors.ts";
import { decodeProtobufObject, PROTOBUF_MAGIC } from "../../api/protobuf/mod.ts";
import { isPlainObject } from "../../api/types.ts";
import { parse as parseYaml } from "yaml";
import {
  type AuditEvent,
  type Auditing,
  auditUser,
  microTime,
  microTimeNow,
  newEvent,
  type RequestAuditConfig,
  type ResponseStatus,
  type Stage,
} from "../../audit/mod.ts";
import type { UserInfo } from "../../auth/user.ts";
import { isLongRunningRequest, type RequestInfo } from "../request-info.ts";

export const AUDIT_ID_HEADER = "Audit-ID";

/** WithAuditInit: the client's Audit-ID when it sent one, else a new UUID. */
export function auditIdOf(request: Request): string {
  return request.headers.get(AUDIT_ID_HEADER) || crypto.randomUUID();
}

export interface AuditRequest {
  request: Request;
  url: URL;
  info: RequestInfo;
  auditID: string;
  /** Epoch microseconds; formatted only when an audit event is made, so requests the policy skips never pay for it. */
  receivedAtMicros: number;
  remoteAddress?: string;
}

/** One request's audit state: its event (changed stage by stage) and what the policy asked for. */
export interface RequestAudit {
  event: AuditEvent;
  config: RequestAuditConfig;
}

function eventFor(
  auditing: Auditing,
  r: AuditRequest,
  user: UserInfo | undefined,
): { event: AuditEvent; config: RequestAuditConfig } | undefined {
  const attributes = { ...r.info, user };
  const config = auditing.evaluate(attributes);
  if (config.level === "None") return undefined;
  const event = newEvent({
    auditID: r.auditID,
    level: config.level,
    requestURI: r.url.pathname + r.url.search,
    headers: r.request.headers,
    remoteAddress: r.remoteAddress,
    attributes,
    receivedAt: microTime(r.receivedAtMicros),
  });
  return { event, config };
}

/** Stores the event at `stage` unless the policy omits that stage (processAuditEvent). */
async function emit(auditing: Auditing, audit: { event: AuditEvent; config: RequestAuditConfig }, stage: Stage): Promise<boolean> {
  if (audit.config.omitStages.includes(stage)) return true;
  audit.event.stage = stage;
  audit.event.stageTimestamp = stage === "RequestReceived" ? audit.event.requestReceivedTimestamp : microTimeNow();
  return await auditing.sink.processEvent(audit.event);
}

/** WithAudit's start: the event and its RequestReceived stage; undefined when the policy says None. */
export async function startAudit(auditing: Auditing, r: AuditRequest, user: UserInfo): Promise<RequestAudit | undefined> {
  const created = eventFor(auditing, r, user);
  if (!created) return undefined;
  if (!(await emit(auditing, created, "RequestReceived"))) throw newInternalError("failed to store audit event");
  return created;
}

/**
 * withFailedRequestAudit (request_deadline.go): a request refused before authentication is one ResponseStarted
 * event, with no user, the refusal's message and its code (decorateResponseWriter's processCode); no WithAudit
 * wraps it, so no ResponseComplete follows.
 */
export async function auditFailedRequest(auditing: Auditing, r: AuditRequest, code: number, message: string): Promise<void> {
  const created = eventFor(auditing, r, undefined);
  if (!created) return;
  created.event.responseStatus = { metadata: {}, message, code };
  await emit(auditing, created, "ResponseStarted");
}

/** WithFailedAuthenticationAudit: the same event, its message naming the attempted methods (getAuthMethods). */
export async function auditFailedAuthentication(
  auditing: Auditing,
  r: AuditRequest,
  code: number,
  hasClientCertificate: boolean,
): Promise<void> {
  await auditFailedRequest(auditing, r, code, authMethodsMessage(r.request, r.url, hasClientCertificate));
}

function authMethodsMessage(request: Request, url: URL, hasClientCertificate: boolean): string {
  const methods: string[] = [];
  const authorization = (request.headers.get("authorization") ?? "").trim();
  if (/^basic /i.test(authorization)) methods.push("basic");
  const parts = authorization.split(" ");
  if (parts.length > 1 && parts[0]!.toLowerCase() === "bearer") methods.push("bearer");
  if ((url.searchParams.get("access_token") ?? "").trim() !== "") methods.push("access_token");
  if (hasClientCertificate) methods.push("x509");
  return methods.length > 0 ? `Authentication failed, attempted: ${methods.join(", ")}` : "Authentication failed, no credentials provided";
}

/** LogImpersonatedUser. */
export function recordImpersonation(audit: RequestAudit | undefined, requestor: UserInfo, user: UserInfo): void {
  if (audit && user !== requestor) audit.event.impersonatedUser = auditUser(user);
}

/** Audit annotations (AddAuditAnnotation): the first value of a key stays. */
export function addAnnotations(audit: RequestAudit | undefined, annotations: Iterable<[string, string]>): void {
  if (!audit) return;
  for (const [key, value] of annotations) {
    audit.event.annotations ??= {};
    if (!(key in audit.event.annotations)) audit.event.annotations[key] = value;
  }
}

/**
 * The response side: bodies per level, then ResponseComplete, or for long-running requests ResponseStarted now
 * and ResponseComplete when the body ends.
 */
export async function finishAudit(
  auditing: Auditing,
  audit: RequestAudit,
  info: RequestInfo,
  response: Response,
  panic?: unknown,
): Promise<Response> {
  if (panic !== undefined) {
    // An exception that is no API error is kubun's panic: WithAudit's recover writes the Panic stage instead of ResponseComplete.
    const message = `APIServer panic'd: ${panic instanceof Error ? panic.message : String(panic)}`;
    audit.event.responseStatus = { metadata: {}, status: "Failure", message, reason: "InternalError", code: 500 };
    await emit(auditing, audit, "Panic");
    return response;
  }
  const event = audit.event;
  if (!isLongRunningRequest(info)) await logResponseBody(audit, info, response);
  event.responseStatus = { ...(event.responseStatus ?? { metadata: {} }), code: response.status };
  if (!isLongRunningRequest(info) || response.body === null) {
    await emit(auditing, audit, "ResponseComplete");
    return response;
  }
  await emit(auditing, audit, "ResponseStarted");
  let completed = false;
  const complete = () => {
    if (completed) return;
    completed = true;
    void emit(auditing, audit, "ResponseComplete");
  };
  const body = response.body.pipeThrough(new TransformStream({ flush: complete }));
  // A client that goes away cancels the stream instead of finishing it.
  const reader = body.getReader();
  const watched = new ReadableStream({
    async pull(controller) {
      const { done, value } = await reader.read();
      if (done) controller.close();
      else controller.enqueue(value);
    },
    cancel(reason) {
      complete();
      return reader.cancel(reason);
    },
  });
  return new Response(watched, { status: response.status, statusText: response.statusText, headers: response.headers });
}

/**
 * LogRequestObject / LogRequestPatch, called by the handler with the body it decoded: objectRef's missing name,
 * namespace, uid and resourceVersion come from the object's metadata (not for patches); Request and
 * RequestResponse levels keep a copy, taken now because the store goes on to change the object, with the kind's
 * defaults filled in as kube's decoder does for creates and updates.
 */
export function logRequestObject(
  audit: RequestAudit,
  info: RequestInfo,
  object: unknown,
  applyDefaults: (copy: Record<string, unknown>) => void,
): void {
  const metadata = isPlainObject(object) && isPlainObject(object.metadata) ? object.metadata : undefined;
  const ref = audit.event.objectRef;
  if (ref && metadata && info.verb !== "patch") {
    for (const field of ["namespace", "name", "uid", "resourceVersion"] as const) {
      const value = metadata[field];
      if (!ref[field] && typeof value === "string" && value !== "") ref[field] = value;
    }
  }
  if (audit.event.level !== "Request" && audit.event.level !== "RequestResponse") return;
  const copy = structuredClone(object);
  // kube's decoder defaults the object before the handler logs it.
  if ((info.verb === "create" || info.verb === "update") && isPlainObject(copy)) applyDefaults(copy);
  audit.event.requestObject = withoutManagedFields(
    isDelete(info) && isPlainObject(copy) ? deleteOptions(copy) : copy,
    audit.config.omitManagedFields,
  );
}

/** Status answers fill responseStatus (the bounded fields); RequestResponse also logs the object. */
async function logResponseBody(audit: RequestAudit, info: RequestInfo, response: Response): Promise<void> {
  const full = audit.event.level === "RequestResponse";
  const mayBeStatus = response.status >= 300 || isDelete(info);
  if (!full && !mayBeStatus) return;
  const object = decodeBody(new Uint8Array(await response.clone().arrayBuffer()));
  if (isPlainObject(object) && object.kind === "Status" && object.apiVersion === "v1") {
    const status: Record<string, unknown> = { metadata: {} };
    for (const field of ["status", "message", "reason", "details", "code"]) {
      if (object[field] !== undefined && object[field] !== "") status[field] = object[field];
    }
    audit.event.responseStatus = status as unknown as ResponseStatus;
  }
  if (full && object !== undefined) audit.event.responseObject = withoutManagedFields(object, audit.config.omitManagedFields);
}

/** A body in any form the server reads or writes (protobuf, JSON, YAML) as kube's JSON; undefined when empty or unreadable. */
function decodeBody(bytes: Uint8Array): unknown {
  if (bytes.length === 0) return undefined;
  try {
    if (PROTOBUF_MAGIC.every((byte, i) => bytes[i] === byte)) return decodeProtobufObject(bytes).object;
    const text = new TextDecoder().decode(bytes);
    return text.trimStart().startsWith("{") ? JSON.parse(text) : parseYaml(text);
  } catch {
    return undefined;
  }
}

/** copyWithoutManagedFields: an object's, a list's items' and a Table's rows' managedFields. */
function withoutManagedFields(value: unknown, omit: boolean): unknown {
  if (!omit || !isPlainObject(value)) return value;
  const strip = (object: unknown) => {
    if (isPlainObject(object) && isPlainObject(object.metadata)) delete object.metadata.managedFields;
  };
  strip(value);
  if (Array.isArray(value.items)) value.items.forEach(strip);
  if (Array.isArray(value.rows)) { for (const row of value.rows) if (isPlainObject(row)) strip(row.object); }
  return value;
}

function isDelete(info: RequestInfo): boolean {
  return info.verb === "delete" || info.verb === "deletecollection";
}

/** Delete bodies are decoded as DeleteOptions and logged in meta.k8s.io/v1, whatever apiVersion the client wrote. */
function deleteOptions(body: Record<string, unknown>): Record<string, unknown> {
  const { kind: _kind, apiVersion: _apiVersion, ...options } = body;
  return { kind: "DeleteOptions", apiVersion: "meta.k8s.io/v1", ...options };
}
