import { expect, test } from "bun:test";
import { limitBody } from "./body-limit.ts";

const URL_ = "https://h/api/v1/namespaces/default/configmaps";

function chunked(parts: string[]): Request {
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const part of parts) controller.enqueue(new TextEncoder().encode(part));
      controller.close();
    },
  });
  return new Request(URL_, { method: "POST", body, headers: { "transfer-encoding": "chunked" } });
}

test("a request without a body passes as it is, with no promise", () => {
  const request = new Request(URL_);
  expect(limitBody(request, 10)).toBe(request);
});

test("limitedReadBody has no declared-length check: a Content-Length within the limit passes unread, one over it is read past the limit and is the 413", async () => {
  const small = new Request(URL_, { method: "POST", body: "12345", headers: { "content-length": "5" } });
  expect(limitBody(small, 5)).toBe(small);
  const request = new Request(URL_, { method: "POST", body: "123456", headers: { "content-length": "6" } });
  const large = limitBody(request, 5);
  expect(large).toBeInstanceOf(Promise);
  const answer = (await large) as Response;
  expect(request.bodyUsed).toBe(true);
  expect(answer.status).toBe(413);
  expect((await answer.json()).message).toBe("Request entity too large: limit is 5");
});

test("a chunked body is read up to the limit: within it the request is handed on with the same bytes", async () => {
  const served = await limitBody(chunked(["ab", "cd"]), 4);
  expect(served).toBeInstanceOf(Request);
  expect(await (served as Request).text()).toBe("abcd");
});

test("a chunked body past the limit is limitedReadBody's 413", async () => {
  const refused = await limitBody(chunked(["ab", "cd", "e"]), 4);
  expect(refused).toBeInstanceOf(Response);
  expect((refused as Response).status).toBe(413);
});

test("limitedReadBody stops at the limit: the body past it is cancelled, not read on", async () => {
  let pulls = 0;
  let cancelled = false;
  const endless = new ReadableStream<Uint8Array>({
    pull(controller) {
      pulls++;
      controller.enqueue(new Uint8Array(3));
    },
    cancel() {
      cancelled = true;
    },
  }, { highWaterMark: 0 });
  const request = new Request(URL_, { method: "POST", body: endless, headers: { "transfer-encoding": "chunked" } });
  const refused = await limitBody(request, 4);
  expect((refused as Response).status).toBe(413);
  expect(cancelled).toBe(true);
  expect(pulls).toBe(2);
});
