import { expect, test } from "bun:test";
import type { Authenticator } from "../auth/authenticator.ts";
import type { Authorizer } from "../auth/authorizer.ts";
import { type ChainDeps, createChain, type Stage } from "./chain.ts";
import { InFlightRequests } from "./filters/shutdown.ts";
import type { ApiMetrics } from "./metrics.ts";

function chainWith(authenticate: Authenticator["authenticate"], inner: Stage, observed: number[] = []) {
  const deps: ChainDeps = {
    metrics: {
      startRequest: () => {},
      finishRequest: () => {},
      observe: (_labels: unknown, status: number) => observed.push(status),
    } as unknown as ApiMetrics,
    authentication: { request: { authenticate } } as unknown as ChainDeps["authentication"],
    authorizer: { authorize: () => Promise.resolve({ decision: "Allow" }) } as unknown as Authorizer,
    inFlight: new InFlightRequests(),
    options: { maxRequestBytes: 1024, anonymous: false, requestTimeoutMs: 60_000 },
  };
  const answer = createChain(deps, inner);
  return (path: string) =>
    Promise.resolve(answer(new Request(`https://h${path}`, { headers: { "Audit-ID": "a-1" } }), { requestTarget: path }));
}

const admin = () => Promise.resolve({ kind: "user" as const, user: { username: "admin", groups: ["system:masters"] } });

test("WithAuthentication's 401 carries the authentication's warnings and WithAuditInit's Audit-ID, and is counted", async () => {
  const observed: number[] = [];
  const get = chainWith(
    (request) => {
      request.warnings?.push("extra space");
      return Promise.resolve({ kind: "error", message: "invalid bearer token" });
    },
    () => new Response("served"),
    observed,
  );
  const answer = await get("/api/v1/pods");
  expect(answer.status).toBe(401);
  expect(answer.headers.get("Audit-ID")).toBe("a-1");
  expect(answer.headers.get("Warning")).toBe('299 - "extra space"');
  expect(observed).toEqual([401]);
});

test("WithPanicRecovery: an exception after authorization is a 500 Status that still gets the Audit-ID", async () => {
  const get = chainWith(admin, () => {
    throw new Error("boom");
  });
  const answer = await get("/api/v1/pods");
  expect(answer.status).toBe(500);
  expect(answer.headers.get("Audit-ID")).toBe("a-1");
  expect((await answer.json()).message).toBe("Internal error occurred: boom");
});

test("WithRequestDeadline: a malformed timeout parameter is a 400 before authentication runs", async () => {
  let authenticated = false;
  const get = chainWith(() => {
    authenticated = true;
    return admin();
  }, () => new Response("served"));
  const answer = await get("/api/v1/pods?timeout=10");
  expect(answer.status).toBe(400);
  expect(authenticated).toBe(false);
});

test("the inner stage's answer passes through with the user it runs as", async () => {
  const get = chainWith(admin, (s) => new Response(s.user?.username));
  const answer = await get("/api/v1/pods");
  expect(answer.status).toBe(200);
  expect(await answer.text()).toBe("admin");
});

test("a request whose authenticator and authorizer decide at once is answered without a promise", () => {
  const deps: ChainDeps = {
    metrics: { startRequest: () => {}, finishRequest: () => {}, observe: () => {} } as unknown as ApiMetrics,
    authentication: {
      request: { authenticate: () => ({ kind: "user", user: { username: "admin", groups: [] } }) },
    } as unknown as ChainDeps["authentication"],
    authorizer: { authorize: () => ({ decision: "Allow" }) },
    inFlight: new InFlightRequests(),
    options: { maxRequestBytes: 1024, anonymous: false, requestTimeoutMs: 60_000 },
  };
  const answer = createChain(deps, () => new Response("ok"))(new Request("https://h/healthz"), { requestTarget: "/healthz" });
  expect(answer).toBeInstanceOf(Response);
  expect((answer as Response).headers.get("Audit-ID")).not.toBeNull();
});

test("WithPanicRecovery, outermost: a filter that throws outside its own guard is a 500 with the Audit-ID, and the request leaves the in-flight count", async () => {
  const inFlight = new InFlightRequests();
  const deps: ChainDeps = {
    metrics: { startRequest: () => {}, finishRequest: () => {}, observe: () => {} } as unknown as ApiMetrics,
    authentication: { request: { authenticate: admin } } as unknown as ChainDeps["authentication"],
    authorizer: { authorize: () => ({ decision: "Allow" }) },
    inFlight,
    options: { maxRequestBytes: 1024, anonymous: false, requestTimeoutMs: 60_000 },
  };
  // A create without a declared length: the body limit reads its body, whose getter throws here.
  const request = new Request("https://h/api/v1/pods", { method: "POST", body: "{}", headers: { "Audit-ID": "a-2" } });
  Object.defineProperty(request, "body", {
    get() {
      throw new Error("body unreadable");
    },
  });
  const answer = await createChain(deps, () => new Response("served"))(request, { requestTarget: "/api/v1/pods" });
  expect(answer.status).toBe(500);
  expect(answer.headers.get("Audit-ID")).toBe("a-2");
  let drained = false;
  void inFlight.drained().then(() => (drained = true));
  await Promise.resolve();
  expect(drained).toBe(true);
});

/** A chain whose requests wait for `inner`, with a deadline of `requestTimeoutMs`, counting what it observes. */
function waitingChain(inner: Stage, requestTimeoutMs: number) {
  const inFlight = new InFlightRequests();
  const counted = { started: 0, finished: 0, observed: [] as number[] };
  const deps: ChainDeps = {
    metrics: {
      startRequest: () => counted.started++,
      finishRequest: () => counted.finished++,
      observe: (_labels: unknown, status: number) => counted.observed.push(status),
    } as unknown as ApiMetrics,
    authentication: { request: { authenticate: admin } } as unknown as ChainDeps["authentication"],
    authorizer: { authorize: () => ({ decision: "Allow" }) },
    inFlight,
    options: { maxRequestBytes: 1024, anonymous: false, requestTimeoutMs },
  };
  const answer = createChain(deps, (s) => {
    s.warnings.push("deprecated");
    return inner(s);
  });
  const get = (path: string) => answer(new Request(`https://h${path}`, { headers: { "Audit-ID": "a-3" } }), { requestTarget: path });
  return { get, inFlight, counted };
}

async function isDrained(inFlight: InFlightRequests): Promise<boolean> {
  let drained = false;
  void inFlight.drained().then(() => (drained = true));
  await Promise.resolve();
  return drained;
}

test("timeoutHandler: an answer later than the deadline is kube's 504 with the warnings and Audit-ID, counted once", async () => {
  let late: (response: Response) => void = () => {};
  const { get, inFlight, counted } = waitingChain(() => new Promise<Response>((resolve) => (late = resolve)), 20);
  const answer = await get("/api/v1/pods");
  expect(answer.status).toBe(504);
  expect(await answer.json()).toMatchObject({ reason: "Timeout", code: 504 });
  expect(answer.headers.get("Audit-ID")).toBe("a-3");
  expect(answer.headers.get("Warning")).toBe('299 - "deprecated"');
  expect(await isDrained(inFlight)).toBe(true);
  // The handler's answer after the 504 is dropped: nothing is counted or left twice.
  late(new Response("too late"));
  await Bun.sleep(10);
  expect(counted).toEqual({ started: 1, finished: 1, observed: [504] });
});

test("timeoutHandler: a shorter timeout parameter bounds the request; an answer before it wins", async () => {
  const { get, counted } = waitingChain((s) => Bun.sleep(s.url.searchParams.has("slow") ? 200 : 1).then(() => new Response("ok")), 60_000);
  const [slow, quick] = await Promise.all([get("/api/v1/pods?slow=1&timeout=30ms"), get("/api/v1/pods?timeout=30ms")]);
  expect(slow.status).toBe(504);
  expect(quick.status).toBe(200);
  expect(quick.headers.get("Warning")).toBe('299 - "deprecated"');
  expect(counted.observed.sort()).toEqual([200, 504]);
});

test("a failure of an answer that waited, before its deadline, is a 500 that leaves the in-flight count", async () => {
  const { get, inFlight, counted } = waitingChain(() => Bun.sleep(1).then(() => Promise.reject(new Error("broken"))), 60_000);
  const answer = await get("/api/v1/pods");
  expect(answer.status).toBe(500);
  expect(answer.headers.get("Audit-ID")).toBe("a-3");
  expect(await isDrained(inFlight)).toBe(true);
  expect(counted).toEqual({ started: 1, finished: 1, observed: [500] });
});
