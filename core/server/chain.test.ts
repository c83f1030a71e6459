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
