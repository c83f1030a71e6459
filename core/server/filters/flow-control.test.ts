import { expect, test } from "bun:test";
import { maxInFlightLimiter } from "./flow-control.ts";
import { parseRequestInfo } from "../request-info.ts";

const info = (method: string, path: string) => parseRequestInfo(method, new URL(`https://localhost${path}`));
const ALICE = { username: "alice", groups: ["system:authenticated"] };
const MASTERS = { username: "admin", groups: ["system:masters", "system:authenticated"] };
const request = new Request("https://localhost/");
const ok = () => Promise.resolve(new Response("ok"));

test("max-in-flight holds the slot until the response is written out, then frees it (kube's WithMaxInFlightLimit)", async () => {
  const limiter = maxInFlightLimiter({ readOnly: 1, mutating: 1 })!;
  let written!: () => void;
  const post = info("POST", "/api/v1/namespaces/default/configmaps");
  expect((await limiter(request, post, ALICE, ok, undefined, { onResponseDone: (done) => (written = done) })).status).toBe(200);
  const refused = await limiter(request, post, ALICE, ok, undefined);
  expect(refused.status).toBe(429);
  expect(refused.headers.get("Retry-After")).toBe("1");
  expect(await refused.text()).toBe("Too many requests, please try again later.\n");
  expect((await limiter(request, post, MASTERS, ok, undefined)).status).toBe(200);
  expect((await limiter(request, info("GET", "/api/v1/namespaces"), ALICE, ok, undefined)).status).toBe(200);
  written();
  expect((await limiter(request, post, ALICE, ok, undefined)).status).toBe(200);
});

test("max-in-flight does not count long-running requests, and 0 disables a limit", async () => {
  const limiter = maxInFlightLimiter({ readOnly: 1, mutating: 0 })!;
  const never = () => {};
  expect(
    (await limiter(request, info("GET", "/api/v1/namespaces/default/pods/p/log"), ALICE, ok, undefined, { onResponseDone: never })).status,
  ).toBe(200);
  expect((await limiter(request, info("GET", "/api/v1/pods?watch=true"), ALICE, ok, undefined, { onResponseDone: never })).status).toBe(
    200,
  );
  expect((await limiter(request, info("GET", "/api/v1/pods"), ALICE, ok, undefined, { onResponseDone: never })).status).toBe(200);
  expect((await limiter(request, info("GET", "/api/v1/pods"), ALICE, ok, undefined)).status).toBe(429);
  expect(
    (await limiter(request, info("DELETE", "/api/v1/namespaces/default/pods/p"), ALICE, ok, undefined, { onResponseDone: never })).status,
  ).toBe(200);
  expect(maxInFlightLimiter({ readOnly: 0, mutating: 0 })).toBeUndefined();
});
