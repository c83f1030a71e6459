import { expect, test } from "bun:test";
import type { Storage } from "../storage/storage.ts";
import { createHealthChecks, HealthChecks } from "./health.ts";

function storageWhoseReads(outcome: "succeed" | "fail"): Storage {
  return {
    get: async () => {
      if (outcome === "fail") throw new Error("database is locked");
      return null;
    },
  } as unknown as Storage;
}

async function get(health: HealthChecks, path: string, method = "GET"): Promise<{ status: number; body: string; headers: Headers } | null> {
  const response = await health.handle(new Request(`https://kubun.test${path}`, { method }));
  if (!response) return null;
  return { status: response.status, body: await response.text(), headers: response.headers };
}

test("an endpoint answers a plain ok with kube's text headers", async () => {
  const response = await get(createHealthChecks(storageWhoseReads("succeed")), "/livez");
  expect(response).toMatchObject({ status: 200, body: "ok" });
  expect(response!.headers.get("content-type")).toBe("text/plain; charset=utf-8");
  expect(response!.headers.get("x-content-type-options")).toBe("nosniff");
});

test("?verbose lists each check of the endpoint and ends with '<endpoint> check passed'", async () => {
  const health = createHealthChecks(storageWhoseReads("succeed"));
  expect((await get(health, "/livez?verbose"))!.body).toBe("[+]ping ok\n[+]log ok\n[+]etcd ok\nlivez check passed\n");
  expect((await get(health, "/readyz?verbose"))!.body).toBe("[+]ping ok\n[+]log ok\n[+]etcd ok\n[+]shutdown ok\nreadyz check passed\n");
});

test("?exclude skips the named checks and warns about names that match none", async () => {
  const response = await get(createHealthChecks(storageWhoseReads("fail")), "/healthz?verbose&exclude=etcd&exclude=nope&exclude=log");
  expect(response).toMatchObject({
    status: 200,
    body:
      '[+]ping ok\n[+]log excluded: ok\n[+]etcd excluded: ok\nwarn: some health checks cannot be excluded: no matches for "nope"\nhealthz check passed\n',
  });
});

test("a failing check answers 500 listing every check with the reason withheld", async () => {
  const response = await get(createHealthChecks(storageWhoseReads("fail")), "/readyz");
  expect(response).toMatchObject({
    status: 500,
    body: "[+]ping ok\n[+]log ok\n[-]etcd failed: reason withheld\n[+]shutdown ok\nreadyz check failed\n",
  });
});

test("/<endpoint>/<check> runs one check and shows its error", async () => {
  const health = createHealthChecks(storageWhoseReads("fail"));
  expect(await get(health, "/livez/ping")).toMatchObject({ status: 200, body: "ok" });
  expect(await get(health, "/livez/etcd")).toMatchObject({
    status: 500,
    body: "internal server error: error getting data from etcd: database is locked\n",
  });
});

test("after beginShutdown() readyz fails on the shutdown check while livez stays ok", async () => {
  const health = createHealthChecks(storageWhoseReads("succeed"));
  health.beginShutdown();
  expect(await get(health, "/readyz/shutdown")).toMatchObject({ status: 500, body: "internal server error: process is shutting down\n" });
  expect(await get(health, "/readyz")).toMatchObject({
    status: 500,
    body: "[+]ping ok\n[+]log ok\n[+]etcd ok\n[-]shutdown failed: reason withheld\nreadyz check failed\n",
  });
  expect(await get(health, "/livez")).toMatchObject({ status: 200, body: "ok" });
});

test("HEAD answers the status without a body", async () => {
  const response = await get(createHealthChecks(storageWhoseReads("fail")), "/readyz", "HEAD");
  expect(response).toMatchObject({ status: 500, body: "" });
});

test("paths and methods that are not health checks are left to the caller", async () => {
  const health = createHealthChecks(storageWhoseReads("succeed"));
  expect(await get(health, "/api")).toBeNull();
  expect(await get(health, "/livez/shutdown")).toBeNull();
  expect(await get(health, "/livez/ping/extra")).toBeNull();
  expect(await get(health, "/livez", "POST")).toBeNull();
});

test("a check scoped away from an endpoint is not run there", async () => {
  const health = new HealthChecks();
  health.add("ping", () => {});
  health.add("warmup", () => Promise.reject(new Error("cold")), { livez: false });
  expect((await get(health, "/livez?verbose"))!.body).toBe("[+]ping ok\nlivez check passed\n");
  expect((await get(health, "/readyz"))!.status).toBe(500);
  expect(() => health.add("ping", () => {})).toThrow('health check "ping" is already registered');
});

test("--livez-grace-period: /livez counts a failing etcd check as passing during the grace (delayedHealthCheck), /readyz does not", async () => {
  const health = createHealthChecks(storageWhoseReads("fail"), 60_000);
  expect(await get(health, "/livez")).toMatchObject({ status: 200, body: "ok" });
  expect((await get(health, "/readyz"))!.status).toBe(500);
  const noGrace = createHealthChecks(storageWhoseReads("fail"));
  expect((await get(noGrace, "/livez"))!.body).toContain("[-]etcd failed: reason withheld");
});

test("newETCD3Check: the storage is read at most once a second; checks in between get the last probe's outcome", async () => {
  let reads = 0;
  let failing = true;
  const storage = {
    get: () => {
      reads++;
      return failing ? Promise.reject(new Error("database is locked")) : Promise.resolve(null);
    },
  } as unknown as Storage;
  let clock = 10_000;
  const health = createHealthChecks(storage, 0, () => clock);
  expect((await get(health, "/healthz"))!.status).toBe(500);
  failing = false;
  clock += 500;
  expect((await get(health, "/healthz"))!.status).toBe(500);
  expect(reads).toBe(1);
  clock += 600;
  expect((await get(health, "/healthz"))!.status).toBe(200);
  expect(reads).toBe(2);
});

test("newETCD3Check: a store that does not answer within the health check timeout fails the check with kube's error", async () => {
  const hung = { get: () => new Promise(() => {}) } as unknown as Storage;
  const health = createHealthChecks(hung, 0, Date.now, 20);
  expect((await get(health, "/healthz"))!.body).toContain("[-]etcd failed: reason withheld");
  expect((await get(health, "/healthz/etcd"))!.body).toContain("error getting data from etcd: context deadline exceeded");
});

test("a check registered after an endpoint has answered is part of its next answer: each endpoint's list is worked out again", async () => {
  const health = createHealthChecks(storageWhoseReads("succeed"));
  expect((await get(health, "/readyz"))!.status).toBe(200);
  health.add("informer-sync", () => {
    throw new Error("not synced");
  });
  expect(await get(health, "/readyz?verbose")).toMatchObject({ status: 500 });
  expect((await get(health, "/readyz?verbose"))!.body).toContain("[-]informer-sync failed: reason withheld");
});

test("handle() answers another path, and a probe whose checks answer at once, without a promise", () => {
  const health = new HealthChecks();
  health.add("ping", () => {});
  expect(health.handle(new Request("https://kubun.test/api/v1/pods"))).toBeNull();
  const probe = health.handle(new Request("https://kubun.test/healthz"));
  expect(probe).toBeInstanceOf(Response);
  expect((probe as Response).status).toBe(200);
  const head = health.handle(new Request("https://kubun.test/livez", { method: "HEAD" }));
  expect(head).toBeInstanceOf(Response);
  expect((head as Response).body).toBeNull();
});

test("a plain probe whose check fails at once between passing ones lists every check in order (kube's healthz handleRootHealth)", async () => {
  const health = new HealthChecks();
  health.add("ping", () => {});
  health.add("broken", () => {
    throw new Error("no");
  });
  health.add("log", () => {});
  for (const path of ["/healthz", "/healthz?"]) {
    expect(await get(health, path)).toMatchObject({
      status: 500,
      body: "[+]ping ok\n[-]broken failed: reason withheld\n[+]log ok\nhealthz check failed\n",
    });
  }
  expect(await get(health, "/healthz/")).toBeNull();
});

test("paths() lists each endpoint and its own checks (healthz.InstallPathHandler)", () => {
  const checks = new HealthChecks();
  checks.add("ping", () => {});
  checks.add("shutdown", () => {}, { healthz: false, livez: false });
  expect(checks.paths()).toEqual(["/healthz", "/healthz/ping", "/livez", "/livez/ping", "/readyz", "/readyz/ping", "/readyz/shutdown"]);
});
