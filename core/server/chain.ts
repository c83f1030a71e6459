/**
 * The filters before routing, in kube's DefaultBuildHandlerChain order, as plain functions: request info and metrics
 * → WithAuditInit → WithLogging → WithRetryAfter and WithWaitGroup → WithWarningRecorder → WithRequestDeadline →
 * authentication → audit → impersonation → max-in-flight or priority and fairness → authorization →
 * body limit → the inner handler. Each stage answers with a Response, or with a promise only when something it
 * calls waits, so a filter with nothing to do makes no async frame, promise or closure. No stage throws or rejects:
 * a stage's own failure becomes its error answer there (kube's WithPanicRecovery), so the outer stages still
 * see an answer to count, log, audit and stamp with the Audit-ID.
 */
import { queryOf } from "../api/query-params.ts";
import { type Auditing, epochMicrosAt } from "../audit/mod.ts";
import type { Authentication } from "../auth/authentication.ts";
import type { Authorizer } from "../auth/authorizer.ts";
import type { UserInfo } from "../auth/user.ts";
import type { ConnectionInfo } from "../runtime/listener.ts";
import { errorResponse, isPanic } from "./error-response.ts";
import { authenticateRequest } from "./filters/authentication.ts";
import { attributesOf, authorizeRequest, type DecisionAnnotations } from "./filters/authorization.ts";
import {
  addAnnotations,
  AUDIT_ID_HEADER,
  auditFailedAuthentication,
  auditFailedRequest,
  auditIdOf,
  type AuditRequest,
  finishAudit,
  recordImpersonation,
  type RequestAudit,
  startAudit,
} from "./filters/audit.ts";
import { limitBody } from "./filters/body-limit.ts";
import type { RequestLimiter } from "./filters/flow-control.ts";
import { httpLoggingEnabled, logHttpRequest } from "./filters/http-log.ts";
import { impersonateRequest } from "./filters/impersonation.ts";
import { type DeadlineWaiter, requestDeadlineMs, RequestDeadlines, timeoutResponse } from "./filters/request-timeout.ts";
import type { InFlightRequests } from "./filters/shutdown.ts";
import type { ApiMetrics, RequestKind } from "./metrics.ts";
import { metricLabels } from "./metric-labels.ts";
import { isPublicPath } from "./public-paths.ts";
import { parseRequestInfo, type RequestInfo } from "./request-info.ts";
import { hasField, withField } from "./respond.ts";
import { withWarnings } from "./warning-headers.ts";

/** What the chain learns about one request, read by the stages after it and by the routes. */
export interface RequestState {
  /** The request as served: a copy holding the bytes once a chunked body was read for its size. */
  request: Request;
  conn: ConnectionInfo;
  url: URL;
  info: RequestInfo;
  auditRequest: AuditRequest;
  /**
   * The request's warning recorder (kube's warning.AddWarning): authentication's, the deprecated version's, decoding's
   * and admission's warnings, in the order recorded, sent with every answer from the deadline stage in, errors included.
   */
  warnings: string[];
  /** The user the request runs as, once authenticated and impersonated. */
  user: UserInfo | undefined;
  audit: RequestAudit | undefined;
  /** An exception that is no API error (kube's panic), for the audit. */
  panic: unknown;
}

/** What the outer stages keep of a request for its end, whenever its answer comes. */
interface ChainState extends RequestState {
  /** performance.now() as the chain took the request: its latency's start and its deadline's (WithRequestDeadline). */
  started: number;
  /** Its count in the in-flight metric; none for a watch. */
  inFlightKind: RequestKind | undefined;
  /** Counted by WithWaitGroup until answered. */
  leavesInFlight: boolean;
}

/** A step after the chain; it may throw or reject, which the chain answers as the failing stage would. */
export type Stage = (s: RequestState) => Response | Promise<Response>;

export interface ChainDeps {
  metrics: ApiMetrics;
  authentication: Authentication;
  authorizer: Authorizer;
  auditing?: Auditing;
  requestLimiter?: RequestLimiter;
  inFlight: InFlightRequests;
  options: { maxRequestBytes: number; anonymous: boolean; requestTimeoutMs: number };
}

const READ_ONLY_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** A stage's own failure as its answer; an exception that is no API error is kept as the request's panic. */
export function failed(s: RequestState, error: unknown): Response {
  if (isPanic(error)) s.panic = error;
  return errorResponse(error, s.request);
}

export function createChain(deps: ChainDeps, inner: Stage): (request: Request, conn: ConnectionInfo) => Response | Promise<Response> {
  const { metrics, inFlight, options } = deps;
  const deadlines = new RequestDeadlines();
  // How a request whose answer waited ends (endedLater): a chain's one object, so a request makes no closure for it.
  const ending: ChainEnd = {
    answered(pending, response) {
      deadlines.leave(pending);
      const s = pending.s;
      let ended: Response;
      try {
        ended = pending.warns ? withWarnings(response, s.warnings) : response;
      } catch (error) {
        return ending.failed(pending, error);
      }
      if (s.leavesInFlight) inFlight.leave();
      return answeredFor(s, ended);
    },
    failed(pending, error) {
      deadlines.leave(pending);
      const s = pending.s;
      if (s.leavesInFlight) inFlight.leave();
      return answeredFor(s, failed(s, error));
    },
  };

  function innerStage(s: RequestState): Response | Promise<Response> {
    try {
      const answered = inner(s);
      return answered instanceof Promise ? failedLater(s, answered) : answered;
    } catch (error) {
      return failed(s, error);
    }
  }

  // Request info, metrics, WithAuditInit and WithLogging: their work after the answer only reads its status and
  // sets a header, so one continuation does all of it.
  return function answer(request, conn) {
    let s: ChainState;
    try {
      // One clock read: the latency's start, the deadline's and the audit's received time (WithRequestReceivedTimestamp).
      const started = performance.now();
      const url = new URL(request.url);
      const info = parseRequestInfo(request.method, url, sentPath(conn.requestTarget) ?? url.pathname);
      const auditRequest = {
        request,
        url,
        info,
        auditID: auditIdOf(request),
        receivedAtMicros: epochMicrosAt(started),
        remoteAddress: conn.remoteAddress,
      };
      // Long-running watches are not counted in flight, as in kube's max-in-flight filter.
      const inFlightKind: RequestKind | undefined = info.verb === "watch"
        ? undefined
        : READ_ONLY_METHODS.has(request.method)
        ? "readOnly"
        : "mutating";
      s = {
        request,
        conn,
        url,
        info,
        auditRequest,
        warnings: [],
        user: undefined,
        audit: undefined,
        panic: undefined,
        started,
        inFlightKind,
        leavesInFlight: false,
      };
    } catch (error) {
      return errorResponse(error, request);
    }
    if (s.inFlightKind) metrics.startRequest(s.inFlightKind);
    let answered: Response | Promise<Response>;
    // WithPanicRecovery, outermost: whatever a stage let through is still a 500 with its Audit-ID, not a dropped
    // connection.
    try {
      answered = retryAfter(s);
    } catch (error) {
      answered = failed(s, error);
    }
    // An answer that waits is ended by its PendingAnswer (endedLater), the outer stages' parts after it included.
    if (answered instanceof Promise) return answered;
    return answeredFor(s, answered);
  };

  function failedLater(s: RequestState, answered: Promise<Response>): Promise<Response> {
    return answered.catch((error: unknown) => failed(s, error));
  }

  function answeredFor(s: ChainState, response: Response): Response {
    if (s.inFlightKind) metrics.finishRequest(s.inFlightKind);
    const { request, url, info, auditID, remoteAddress } = s.auditRequest;
    const latencyMs = performance.now() - s.started;
    try {
      const labels = metricLabels(info, request, url);
      if (httpLoggingEnabled()) {
        logHttpRequest({
          verb: labels.verb,
          uri: s.conn.requestTarget ?? url.pathname + url.search,
          latencyMs,
          userAgent: request.headers.get("user-agent") ?? "",
          auditID,
          srcIP: remoteAddress ?? "",
          status: response.status,
        });
      }
      response = withField(response, AUDIT_ID_HEADER, auditID);
      // WithCacheControl: every answer is behind authentication, so none may be cached unless it says otherwise.
      if (!hasField(response, "Cache-Control")) response = withField(response, "Cache-Control", "no-cache, private");
      metrics.observe(labels, response.status, latencyMs / 1000);
    } catch (error) {
      response = failed(s, error);
    }
    return response;
  }

  // WithRetryAfter and WithWaitGroup: refused once shutdown stops taking requests, otherwise counted until answered.
  function retryAfter(s: ChainState): Response | Promise<Response> {
    const admitted = inFlight.enter(s.request, s.url.pathname, s.info);
    if (admitted instanceof Response) return admitted;
    s.leavesInFlight = admitted;
    let answered: Response | Promise<Response>;
    try {
      answered = deadline(s);
    } catch (error) {
      // Counted in flight until answered, or a graceful shutdown would wait for it to its timeout.
      answered = failed(s, error);
    }
    if (!admitted || answered instanceof Promise) return answered;
    inFlight.leave();
    return answered;
  }

  // WithRequestDeadline and WithTimeoutForNonLongRunningRequests sit outside authentication in kube's chain, and
  // kube reads the body inside its handlers, so the deadline covers a body that stalls too. An answer given at once
  // needs no timer.
  function deadline(s: ChainState): Response | Promise<Response> {
    let deadlineMs: number | undefined;
    try {
      // A URL's searchParams is an object made on first read; most requests have no query to read.
      deadlineMs = requestDeadlineMs(s.info, queryOf(s.url), options.requestTimeoutMs);
    } catch (error) {
      return refusedBeforeAuthentication(s, error);
    }
    const answered = authenticated(s);
    // WithWarningRecorder sits just outside WithWaitGroup and WithRequestDeadline: what was recorded before the
    // status is written goes on the answer, whatever it is, a timeout's 504 included.
    if (answered instanceof Promise) return endedLater(s, answered, deadlineMs, true);
    return withWarnings(answered, s.warnings);
  }

  // withFailedRequestAudit: WithRequestDeadline's refusal is audited by itself, as authentication has not run.
  function refusedBeforeAuthentication(s: ChainState, error: unknown): Response | Promise<Response> {
    const answer = failed(s, error);
    const auditing = deps.auditing;
    if (!auditing) return answer;
    const message = error instanceof Error ? error.message : String(error);
    const audited = auditFailedRequest(auditing, s.auditRequest, answer.status, message).then(
      () => answer,
      (auditError: unknown) => failed(s, auditError),
    );
    return endedLater(s, audited, undefined, false);
  }

  /**
   * A request whose answer waits ends in one reaction to it (or to its deadline): the deadline's 504, the warnings,
   * WithWaitGroup's leave and the metrics and log, in the order the stages' own continuations ran them.
   */
  function endedLater(s: ChainState, answered: Promise<Response>, deadlineMs: number | undefined, warns: boolean): Promise<Response> {
    const pending = new PendingAnswer(s, warns, ending);
    if (deadlineMs !== undefined) deadlines.wait(pending, deadlineMs, s.started);
    answered.then((response) => pending.answered(response), (error: unknown) => pending.failed(error));
    return pending.promise;
  }

  // kube reads the body in its handlers (limitedReadBody, endpoints/handlers/rest.go), after authentication, audit
  // and authorization: a client without credentials gets its 401 before any of its body is read, and a 413 is audited.
  function bodyLimited(s: RequestState): Response | Promise<Response> {
    const limited = limitBody(s.request, options.maxRequestBytes);
    if (limited instanceof Promise) return bodyLimitedLater(s, limited);
    return servedOrRefused(s, limited);
  }

  function bodyLimitedLater(s: RequestState, limited: Promise<Request | Response>): Promise<Response> {
    return limited.then((served) => servedOrRefused(s, served), (error: unknown) => failed(s, error));
  }

  function servedOrRefused(s: RequestState, served: Request | Response): Response | Promise<Response> {
    if (served instanceof Response) return served;
    s.request = served;
    return innerStage(s);
  }

  // Authentication, then the audit of what follows.
  function authenticated(s: RequestState): Response | Promise<Response> {
    let requestor: UserInfo | Promise<UserInfo>;
    try {
      const credentials = { headers: s.request.headers, url: s.url, peerCertificate: s.conn.peerCertificate, warnings: s.warnings };
      requestor = authenticateRequest(deps.authentication.request, credentials, options.anonymous || isPublicPath(s.url.pathname));
    } catch (error) {
      return unauthenticated(s, error);
    }
    if (requestor instanceof Promise) return authenticatedLater(s, requestor);
    return audited(s, requestor);
  }

  function authenticatedLater(s: RequestState, requestor: Promise<UserInfo>): Promise<Response> {
    return requestor.then((user) => audited(s, user), (error: unknown) => unauthenticated(s, error));
  }

  function unauthenticated(s: RequestState, error: unknown): Response | Promise<Response> {
    const auditing = deps.auditing;
    if (!auditing) return failed(s, error);
    return auditFailedAuthentication(auditing, s.auditRequest, 401, s.conn.peerCertificate !== undefined).then(
      () => failed(s, error),
      (auditError: unknown) => failed(s, auditError),
    );
  }

  function audited(s: RequestState, requestor: UserInfo): Response | Promise<Response> {
    const auditing = deps.auditing;
    if (auditing) return auditedAnswer(s, auditing, requestor);
    return impersonated(s, requestor);
  }

  // The audit sees the answer to every request it recorded, refusals included, as kube's WithAudit does.
  async function auditedAnswer(s: RequestState, auditing: Auditing, requestor: UserInfo): Promise<Response> {
    let answered: Response;
    try {
      const audit = await startAudit(auditing, s.auditRequest, requestor);
      s.audit = audit;
      const pending = impersonated(s, requestor);
      answered = pending instanceof Promise ? await pending : pending;
      if (audit) answered = await finishAudit(auditing, audit, s.info, answered, s.panic);
    } catch (error) {
      answered = failed(s, error);
    }
    return answered;
  }

  function impersonated(s: RequestState, requestor: UserInfo): Response | Promise<Response> {
    try {
      const user = impersonateRequest(deps.authorizer, s.request, requestor);
      if (user instanceof Promise) return impersonatedLater(s, requestor, user);
      return limited(s, requestor, user);
    } catch (error) {
      return failed(s, error);
    }
  }

  function impersonatedLater(s: RequestState, requestor: UserInfo, user: Promise<UserInfo | Response>): Promise<Response> {
    return user.then((u) => limited(s, requestor, u), (error: unknown) => failed(s, error));
  }

  // WithMaxInFlightLimit or WithPriorityAndFairness sits between impersonation and authorization in kube's chain.
  function limited(s: RequestState, requestor: UserInfo, user: UserInfo | Response): Response | Promise<Response> {
    if (user instanceof Response) return user;
    try {
      recordImpersonation(s.audit, requestor, user);
      s.user = user;
      const limiter = deps.requestLimiter;
      if (!limiter) return authorized(s);
      const answered = limiter(s.request, s.info, user, authorized, s, s.conn);
      return answered instanceof Promise ? failedLater(s, answered) : answered;
    } catch (error) {
      return failed(s, error);
    }
  }

  function authorized(s: RequestState): Response | Promise<Response> {
    try {
      const decided = authorizeRequest(deps.authorizer, attributesOf(s.info, s.user!), s.audit && annotationsFor(s.audit));
      if (decided instanceof Promise) return authorizedLater(s, decided);
      return bodyLimited(s);
    } catch (error) {
      return failed(s, error);
    }
  }

  function authorizedLater(s: RequestState, decided: Promise<void>): Promise<Response> {
    return decided.then(() => bodyLimited(s), (error: unknown) => failed(s, error));
  }
}

/** How createChain ends a request whose answer waited; called as plain functions. */
interface ChainEnd {
  answered(pending: PendingAnswer, response: Response): Response;
  failed(pending: PendingAnswer, error: unknown): Response;
}

/**
 * The answer of a request that waits: settled once, by the answer, its failure or the deadline, whichever comes first.
 * The handler keeps running after a 504, as kube's does after its timeout; what it answers then is dropped, a failure
 * too (post-timeout activity nobody waits for).
 */
class PendingAnswer implements DeadlineWaiter {
  deadlineAt = 0;
  previousWaiter: DeadlineWaiter | undefined = undefined;
  nextWaiter: DeadlineWaiter | undefined = undefined;
  waitingIn: DeadlineWaiter["waitingIn"] = undefined;
  readonly promise: Promise<Response>;
  readonly #resolve: (response: Response) => void;
  readonly #reject: (error: unknown) => void;
  #settled = false;

  constructor(readonly s: ChainState, readonly warns: boolean, readonly end: ChainEnd) {
    // An executor rather than Promise.withResolvers, whose result object cost as much again (~35 against ~60 ns).
    let resolveAnswer!: (response: Response) => void;
    let rejectAnswer!: (error: unknown) => void;
    this.promise = new Promise<Response>((resolve, reject) => {
      resolveAnswer = resolve;
      rejectAnswer = reject;
    });
    this.#resolve = resolveAnswer;
    this.#reject = rejectAnswer;
  }

  answered(response: Response): void {
    this.#settle(this.end.answered, response);
  }

  failed(error: unknown): void {
    this.#settle(this.end.failed, error);
  }

  #settle<T>(end: (pending: PendingAnswer, outcome: T) => Response, outcome: T): void {
    if (this.#settled) return;
    this.#settled = true;
    try {
      this.#resolve(end(this, outcome));
    } catch (error) {
      this.#reject(error);
    }
  }

  /** kube's timeoutHandler: the 504 goes out in the handler's place. */
  deadlinePassed(): void {
    this.answered(timeoutResponse());
  }
}

/** The path of an origin-form request-target (`/api/v1/...?query`); undefined for any other form. */
function sentPath(target: string | undefined): string | undefined {
  if (!target?.startsWith("/")) return undefined;
  const query = target.indexOf("?");
  return query < 0 ? target : target.slice(0, query);
}

/** WithAuthorization's decision annotations, added to the request's audit event. */
function annotationsFor(audit: RequestAudit): (annotations: DecisionAnnotations) => void {
  return (annotations) => addAnnotations(audit, annotations);
}
