/** Complete answers: their fields kept out of the Headers, and what kubun's HTTP/1.x writer makes of them. */
import { expect, test } from "bun:test";
import { Buffer } from "node:buffer";
import type { TLSSocket } from "node:tls";
import { completeResponse, hasField, withField } from "./_complete-response.ts";
import { Http1Request, Http1Response } from "./_http1-exchange.ts";
import { parseHead } from "./_http1-head.ts";
import { responseHeaders, writeResponse } from "./fetch-adapter.ts";

/** What kubun's HTTP/1.x writer puts on the wire for `response`, its Date masked. */
function writtenByHttp1(response: Response): string {
  const written: Buffer[] = [];
  const socket = {
    write(bytes: Uint8Array | string, encodingOrCallback?: BufferEncoding | (() => void), callback?: () => void) {
      written.push(
        typeof bytes === "string"
          ? Buffer.from(bytes, typeof encodingOrCallback === "string" ? encodingOrCallback : "utf8")
          : Buffer.from(bytes),
      );
      (typeof encodingOrCallback === "function" ? encodingOrCallback : callback)?.();
      return true;
    },
  } as unknown as TLSSocket;
  const flow = { pauseBody() {}, resumeBody() {} };
  const request = new Http1Request(parseHead("POST /x HTTP/1.1\r\nHost: h\r\nContent-Length: 0"), socket, flow);
  writeResponse(response, new Http1Response(request, socket, false, () => {}), false);
  return Buffer.concat(written).toString("latin1").replace(/Date: [^\r]+/, "Date: -");
}

test("withField: a complete answer's fields go out as its Headers would give them: well-known names first, each in the order set, in lower case", () => {
  const init = { status: 201, headers: { "Content-Type": "application/json" } };
  const fields = [["X-Kubernetes-PF-FlowSchema-UID", "f1"], ["Audit-Id", "a1"], ["Cache-Control", "no-cache, private"], ["Audit-Id", "a2"]];
  const throughHeaders = new Response("{}\n", init);
  for (const [name, value] of fields) throughHeaders.headers.set(name!, value!);
  let complete = completeResponse("{}\n", init);
  for (const [name, value] of fields) complete = withField(complete, name!, value!);
  expect(writtenByHttp1(complete)).toBe(
    "HTTP/1.1 201 Created\r\ncontent-type: application/json\r\ncache-control: no-cache, private\r\n" +
      "x-kubernetes-pf-flowschema-uid: f1\r\naudit-id: a2\r\ncontent-length: 3\r\nDate: -\r\n\r\n{}\n",
  );
  const wireNames = writtenByHttp1(complete).split("\r\n").slice(1, 5).map((line) => line.split(":")[0]);
  expect(wireNames).toEqual(Object.keys(responseHeaders(throughHeaders.headers, false)));
});

test("withField and hasField: what is set on a complete answer is in its headers, a copy's and a clone's; values Headers would change go through them", async () => {
  const made = () => withField(completeResponse("ok", { headers: { "Content-Type": "text/plain" } }), "Audit-Id", "a1");
  expect(hasField(made(), "audit-id")).toBe(true);
  expect(hasField(made(), "Cache-Control")).toBe(false);
  expect(made().headers.get("audit-id")).toBe("a1");
  expect(made().headers.get("content-type")).toBe("text/plain");
  expect(new Response(null, made()).headers.get("audit-id")).toBe("a1");
  const cloned = made().clone();
  expect([cloned.headers.get("audit-id"), await cloned.text()]).toEqual(["a1", "ok"]);
  const read = made();
  expect(read.headers.has("audit-id")).toBe(true);
  expect(hasField(withField(read, "Cache-Control", "private"), "cache-control")).toBe(true);
  // Headers trim a value's surrounding whitespace and refuse a line break, as before.
  expect(withField(made(), "Audit-Id", " a2 ").headers.get("audit-id")).toBe("a2");
  expect(() => withField(made(), "Audit-Id", "a\r\nb")).toThrow(TypeError);
  expect(() => withField(made(), "Bad Name", "x")).toThrow(TypeError);
});
