import { expect, test } from "bun:test";
import { parseRequestInfo } from "../request-info.ts";
import { InFlightRequests } from "./shutdown.ts";

function call(inFlight: InFlightRequests, target: string, next: () => Promise<Response>, userAgent = "kubectl/v1.26.0") {
  const url = new URL(`https://h${target}`);
  const request = new Request(url, { headers: { "user-agent": userAgent } });
  const admitted = inFlight.enter(request, url.pathname, parseRequestInfo("GET", url));
  if (admitted instanceof Response) return Promise.resolve(admitted);
  return admitted ? next().finally(() => inFlight.leave()) : next();
}

const ok = () => Promise.resolve(new Response("ok"));

test("WithRetryAfter: after refuseNew a request gets kube's 429 with Retry-After: 5 and Connection: close", async () => {
  const inFlight = new InFlightRequests();
  inFlight.refuseNew();
  const refused = await call(inFlight, "/api/v1/pods", ok);
  expect(refused.status).toBe(429);
  expect(refused.headers.get("retry-after")).toBe("5");
  expect(refused.headers.get("connection")).toBe("close");
  expect(await refused.text()).toBe("The apiserver is shutting down, please try again later.\n");
});

test("isRequestExemptFromRetryAfter: health probes, /metrics and the kube-apiserver loopback client are still served", async () => {
  const inFlight = new InFlightRequests();
  inFlight.refuseNew();
  for (const path of ["/readyz", "/livez", "/healthz/etcd", "/metrics"]) expect((await call(inFlight, path, ok)).status).toBe(200);
  expect((await call(inFlight, "/api/v1/pods", ok, "kube-apiserver/v1.26.0")).status).toBe(200);
});

test("WithWaitGroup: drained() waits for the request in flight, not for a watch", async () => {
  const inFlight = new InFlightRequests();
  let finish!: () => void;
  const slow = call(inFlight, "/api/v1/pods", () => new Promise((resolve) => (finish = () => resolve(new Response("late")))));
  void call(inFlight, "/api/v1/pods?watch=1", () => new Promise(() => {}));
  let drained = false;
  const waiting = inFlight.drained().then(() => (drained = true));
  await Bun.sleep(10);
  expect(drained).toBe(false);
  finish();
  await waiting;
  expect((await slow).status).toBe(200);
});

test("enter() admits without a callback: false for exempt and long-running requests, true for counted ones", () => {
  const inFlight = new InFlightRequests();
  const info = (target: string) => parseRequestInfo("GET", new URL(`https://h${target}`));
  const request = new Request("https://h/", { headers: { "user-agent": "kubectl/v1.26.0" } });
  expect(inFlight.enter(request, "/healthz", info("/healthz"))).toBe(false);
  expect(inFlight.enter(request, "/api/v1/pods", info("/api/v1/pods?watch=1"))).toBe(false);
  expect(inFlight.enter(request, "/api/v1/pods", info("/api/v1/pods"))).toBe(true);
  inFlight.leave();
});
