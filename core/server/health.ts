/**
 * /healthz, /livez and /readyz with kube's output (k8s.io/apiserver pkg/server/healthz): "ok", or
 * with ?verbose one `[+]name ok` line per check, `?exclude=name` to skip checks, `/<endpoint>/<check>`
 * for one check, and on failure a 500 listing every check with the reasons withheld.
 */
import { completeResponse, headAnswer } from "../runtime/fetch-adapter.ts";
import type { Storage } from "../storage/storage.ts";
import { withTimeout } from "../runtime/with-timeout.ts";

export type HealthCheck = () => Promise<void> | void;
export type HealthEndpoint = "healthz" | "livez" | "readyz";

export interface HealthCheckScope {
  healthz?: boolean;
  livez?: boolean;
  readyz?: boolean;
}

interface NamedCheck {
  name: string;
  check: HealthCheck;
  /** What /livez runs: the check, or a delayedHealthCheck that passes until the grace period is over. */
  livezCheck: HealthCheck;
  endpoints: Set<HealthEndpoint>;
}

const ENDPOINTS: readonly HealthEndpoint[] = ["healthz", "livez", "readyz"];
/**
 * Given as an object, a complete answer keeps its fields out of the Response's Headers, as it does the fields the
 * chain adds, and kubun's HTTP/1.x writer takes them from it (core/runtime/_complete-response.ts); given as a Headers,
 * the Response copies them into its own.
 */
const TEXT_HEADERS = { "content-type": "text/plain; charset=utf-8", "x-content-type-options": "nosniff" };

export class HealthChecks {
  #checks: NamedCheck[] = [];
  /** Each endpoint's checks, worked out once per registration rather than per request. */
  #byEndpoint = new Map<HealthEndpoint, NamedCheck[]>();
  #shuttingDown = false;

  /**
   * Registers a check; it is part of every endpoint unless its scope says otherwise. With livezGraceMs, /livez
   * counts it as passing for that long from now (kube's --livez-grace-period, delayedHealthCheck).
   */
  add(name: string, check: HealthCheck, scope: HealthCheckScope = {}, livezGraceMs = 0): void {
    if (this.#checks.some((existing) => existing.name === name)) {
      throw new Error(`health check ${JSON.stringify(name)} is already registered`);
    }
    const endpoints = new Set(ENDPOINTS.filter((endpoint) => scope[endpoint] !== false));
    const graceEnds = Date.now() + livezGraceMs;
    const livezCheck = livezGraceMs > 0 ? () => (Date.now() < graceEnds ? undefined : check()) : check;
    this.#checks.push({ name, check, livezCheck, endpoints });
    this.#byEndpoint.clear();
  }

  #checksOf(endpoint: HealthEndpoint): NamedCheck[] {
    let checks = this.#byEndpoint.get(endpoint);
    if (!checks) {
      checks = this.#checks
        .filter((check) => check.endpoints.has(endpoint))
        .map((check) => (endpoint === "livez" ? { ...check, check: check.livezCheck } : check));
      this.#byEndpoint.set(endpoint, checks);
    }
    return checks;
  }

  /** Each endpoint's path and its checks' paths, which healthz.InstallPathHandler registers as listed paths. */
  paths(): string[] {
    return ENDPOINTS.flatMap((endpoint) => [`/${endpoint}`, ...this.#checksOf(endpoint).map((check) => `/${endpoint}/${check.name}`)]);
  }

  /** From now on the `shutdown` check fails, so load balancers stop sending requests. */
  beginShutdown(): void {
    this.#shuttingDown = true;
  }

  get shuttingDown(): boolean {
    return this.#shuttingDown;
  }

  /**
   * Answers GET/HEAD of a health path; null for any other request. `url` is the request's, when already parsed. Any
   * other path, and a probe whose checks all answer at once, is answered without a promise.
   */
  handle(request: Request, url = new URL(request.url)): Response | null | Promise<Response | null> {
    if (request.method !== "GET" && request.method !== "HEAD") return null;
    const response = this.#answer(url);
    if (request.method !== "HEAD" || response === null) return response;
    return response instanceof Promise ? response.then(headOf) : headOf(response);
  }

  #answer(url: URL): Response | null | Promise<Response | null> {
    const path = url.pathname;
    // The probe load balancers and kubelets send again and again (`/healthz`, no query) skips splitting the path
    // and parsing a query.
    const probed = PROBE_PATHS.get(path);
    if (probed !== undefined) return runAll(probed, this.#checksOf(probed), url.search === "" ? undefined : url.searchParams);
    const [, endpoint, checkName, ...rest] = path.split("/");
    if (!ENDPOINTS.includes(endpoint as HealthEndpoint) || rest.length > 0) return null;
    const checks = this.#checksOf(endpoint as HealthEndpoint);
    if (checkName === undefined) return runAll(endpoint!, checks, url.searchParams);
    return runOne(checks.find((check) => check.name === checkName));
  }
}

/** Each endpoint's own path, with no check named. */
const PROBE_PATHS: ReadonlyMap<string, HealthEndpoint> = new Map(ENDPOINTS.map((endpoint) => [`/${endpoint}`, endpoint]));

function headOf(response: Response | null): Response | null {
  return response && headAnswer(response);
}

/** kube's DefaultHealthcheckTimeout (2 s): the storage is probed at most once per half of it. */
const STORAGE_PROBE_INTERVAL_MS = 1000;

/**
 * kube's newETCD3Check: one storage read per interval (a rate limiter with a burst of one); a check in between gets
 * the outcome of the last probe sent that has finished, not a new read, so health probes under load cost nothing.
 * That outcome is given at once (returned or thrown), with no promise to settle.
 */
function rateLimitedProbe(probe: () => Promise<void>, now: () => number): HealthCheck {
  let nextProbeAt = -Infinity;
  let last: { sentAt: number; error?: unknown } | undefined;
  const record = (sentAt: number, error?: unknown) => {
    // atomicLastError.Store: an outcome only replaces one of a probe sent earlier.
    if (!last || last.sentAt < sentAt) last = { sentAt, error };
  };
  return () => {
    const sentAt = now();
    if (sentAt < nextProbeAt && last) {
      if (last.error !== undefined) throw last.error;
      return;
    }
    nextProbeAt = sentAt + STORAGE_PROBE_INTERVAL_MS;
    return recorded(probe(), sentAt);
  };
  // Apart from the check, so that a check answered from the last outcome makes no scope for `sentAt`.
  function recorded(probing: Promise<void>, sentAt: number): Promise<void> {
    return probing.then(
      () => record(sentAt),
      (error: unknown) => {
        record(sentAt, error);
        throw error;
      },
    );
  }
}

/**
 * The checks kube-apiserver has that apply to kubun: ping, log, etcd (a storage read) and shutdown. kube adds
 * etcd through AddHealthChecks, so /livez forgives it during --livez-grace-period.
 */
/** kube's --etcd-healthcheck-timeout default (storagebackend DefaultHealthcheckTimeout): a hung store fails the check. */
const STORAGE_PROBE_TIMEOUT_MS = 2000;

/** newETCD3Check's read: `<prefix>/health` within the timeout, failing as `error getting data from etcd: <err>`. */
async function readHealthKey(storage: Storage, timeoutMs: number): Promise<void> {
  try {
    await withTimeout(Promise.resolve(storage.get("/health")), timeoutMs);
  } catch (error) {
    throw new Error(`error getting data from etcd: ${(error as Error).message}`, { cause: error });
  }
}

/** The storage read the etcd check makes, unthrottled (componentstatuses' etcd-0 checks once per request). */
export function storageHealthProbe(storage: Storage): () => Promise<void> {
  return () => readHealthKey(storage, STORAGE_PROBE_TIMEOUT_MS);
}

export function createHealthChecks(
  storage: Storage,
  livezGraceMs = 0,
  now: () => number = Date.now,
  probeTimeoutMs = STORAGE_PROBE_TIMEOUT_MS,
): HealthChecks {
  const health = new HealthChecks();
  health.add("ping", () => {});
  // Logging goes synchronously to stderr, so it cannot be blocked the way klog's flush can.
  health.add("log", () => {});
  // Named etcd as in kube so probes that exclude or query it keep working. "/health" is on the main store: kube 1.26's
  // addEtcdHealthEndpoint checks --etcd-servers only, not the --etcd-servers-overrides servers.
  health.add("etcd", rateLimitedProbe(() => readHealthKey(storage, probeTimeoutMs), now), {}, livezGraceMs);
  health.add(
    "shutdown",
    () => {
      if (health.shuttingDown) throw new Error("process is shutting down");
    },
    { healthz: false, livez: false },
  );
  return health;
}

const NOTHING_EXCLUDED: ReadonlySet<string> = new Set();

type Outcome = boolean | "excluded" | Promise<boolean>;

/**
 * Runs every check not excluded. The outcomes are only gathered once one is not a plain pass or ?verbose asks for
 * them, so a passing probe makes no list and no closure.
 */
function runAll(endpoint: string, checks: NamedCheck[], query: URLSearchParams | undefined): Response | Promise<Response> {
  const excluded: ReadonlySet<string> = query === undefined || query.size === 0 ? NOTHING_EXCLUDED : new Set(query.getAll("exclude"));
  let outcomes: Outcome[] | undefined;
  let waiting = false;
  for (let index = 0; index < checks.length; index++) {
    const check = checks[index]!;
    const outcome: Outcome = excluded.has(check.name) ? "excluded" : outcomeOf(check.check);
    if (outcome !== true && outcomes === undefined) outcomes = new Array<Outcome>(index).fill(true);
    outcomes?.push(outcome);
    if (outcome instanceof Promise) waiting = true;
  }
  if (outcomes === undefined) {
    if (!query?.has("verbose")) return text(200, "ok");
    outcomes = new Array<Outcome>(checks.length).fill(true);
  }
  if (waiting) return Promise.all(outcomes).then((settled) => report(endpoint, checks, query, excluded, settled));
  return report(endpoint, checks, query, excluded, outcomes as (boolean | "excluded")[]);
}

function report(
  endpoint: string,
  checks: NamedCheck[],
  query: URLSearchParams | undefined,
  excluded: ReadonlySet<string>,
  outcomes: (boolean | "excluded")[],
): Response {
  const failed = outcomes.includes(false);
  if (!failed && !query?.has("verbose")) return text(200, "ok");
  const lines = checks.map((check, index) => {
    if (outcomes[index] === "excluded") return `[+]${check.name} excluded: ok`;
    return outcomes[index] ? `[+]${check.name} ok` : `[-]${check.name} failed: reason withheld`;
  });
  const unmatched = [...excluded].filter((name) => !checks.some((check) => check.name === name));
  if (unmatched.length > 0) {
    const names = unmatched.sort().map((name) => JSON.stringify(name));
    lines.push(`warn: some health checks cannot be excluded: no matches for ${names.join(",")}`);
  }
  if (failed) return text(500, `${lines.join("\n")}\n${endpoint} check failed\n`);
  return text(200, `${lines.join("\n")}\n${endpoint} check passed\n`);
}

async function runOne(check: NamedCheck | undefined): Promise<Response | null> {
  if (!check) return null;
  try {
    await check.check();
    return text(200, "ok");
  } catch (error) {
    return text(500, `internal server error: ${(error as Error).message}\n`);
  }
}

/** Whether the check passes: at once for a check that answers at once, else once its promise settles. */
function outcomeOf(check: HealthCheck): boolean | Promise<boolean> {
  let result: Promise<void> | void;
  try {
    result = check();
  } catch {
    return false;
  }
  return result instanceof Promise ? result.then(() => true, () => false) : true;
}

function text(status: number, body: string): Response {
  return completeResponse(body, { status, headers: TEXT_HEADERS });
}
