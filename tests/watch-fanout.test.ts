/**
 * Many watches of one collection (issue 16): each gets every event once, in order, in its own representation,
 * though frames are encoded once per form and written straight to the sockets; a client that stops reading holds
 * up nobody else; a watch that ends leaves its connection usable.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { readFile } from "node:fs/promises";
import { connect, type TLSSocket } from "node:tls";
import { decodeProtobufObject, decodeWatchEventFrames } from "../core/api/protobuf/mod.ts";
import { createConfigMap, createNamespace, type Json, openWatch } from "./_api.ts";
import { readCredentials, startServer, type TestServer } from "./harness.ts";

let server: TestServer;

beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server?.stop();
});

const collection = (ns: string) => `/api/v1/namespaces/${ns}/configmaps`;
const TABLE = "application/json;as=Table;v=v1;g=meta.k8s.io";

/** The watch's body until `count` frames arrived, read whole (it stays open, so the reader is cancelled then). */
async function readFrames<T>(response: Response, parse: (bytes: Uint8Array) => T[], count: number): Promise<T[]> {
  const reader = response.body!.getReader();
  let bytes = new Uint8Array(0);
  for (;;) {
    const frames = parse(bytes);
    if (frames.length >= count) {
      await reader.cancel();
      return frames;
    }
    const { value, done } = await reader.read();
    if (done) throw new Error(`the watch ended after ${frames.length} frames`);
    const joined = new Uint8Array(bytes.length + value.length);
    joined.set(bytes);
    joined.set(value, bytes.length);
    bytes = joined;
  }
}

const jsonLines = (bytes: Uint8Array): Json[] => new TextDecoder().decode(bytes).split("\n").slice(0, -1).map((line) => JSON.parse(line));

const protobufFrames = (bytes: Uint8Array) =>
  decodeWatchEventFrames(bytes).events.map((frame) => ({ type: frame.type, object: decodeProtobufObject(frame.object).object as Json }));

test("cachingObject: 30 watches in JSON, Table (with and without the object) and protobuf each get every event once, in order, in their own form", async () => {
  const ns = "fanout-forms";
  await createNamespace(server, ns);
  const start = (await (await server.request("GET", collection(ns))).json()).metadata.resourceVersion;
  const watch = (accept: string, query = "") =>
    server.request("GET", `${collection(ns)}?watch=true&resourceVersion=${start}${query}`, { headers: { Accept: accept } });
  const forms = [
    { accept: "application/json", query: "", parse: jsonLines, name: (e: Json) => e.object.metadata.name },
    { accept: TABLE, query: "", parse: jsonLines, name: (e: Json) => e.object.rows[0].cells[0] },
    { accept: TABLE, query: "&includeObject=Object", parse: jsonLines, name: (e: Json) => e.object.rows[0].object.metadata.name },
    {
      accept: "application/vnd.kubernetes.protobuf",
      query: "",
      parse: protobufFrames,
      name: (e: Json) => e.object.metadata.name,
    },
  ];
  const watches = await Promise.all(
    Array.from({ length: 30 }, (_, i) => forms[i % forms.length]!).map(async (form) => ({
      form,
      response: await watch(form.accept, form.query),
    })),
  );
  const names = Array.from({ length: 10 }, (_, i) => `cm-${i}`);
  for (const name of names) await createConfigMap(server, ns, name);
  const seen = await Promise.all(watches.map(async ({ form, response }) => {
    expect(response.status).toBe(200);
    const frames: Json[] = await readFrames(response, form.parse, names.length);
    return { form: `${form.accept}${form.query}`, frames, events: frames.map((e) => `${e.type} ${form.name(e)}`) };
  }));
  for (const { form, events } of seen) expect({ form, events }).toEqual({ form, events: names.map((name) => `ADDED ${name}`) });
  const rowKinds = (form: string) =>
    seen.filter((watch) => watch.form === form).flatMap((watch) => watch.frames.map((e) => e.object.rows[0].object.kind));
  expect(new Set(rowKinds(TABLE))).toEqual(new Set(["PartialObjectMetadata"]));
  expect(new Set(rowKinds(`${TABLE}&includeObject=Object`))).toEqual(new Set(["ConfigMap"]));
});

/** A watch on its own TLS connection whose reading can be paused. */
async function socketWatch(path: string): Promise<{ socket: TLSSocket; received: () => string }> {
  const { ca, cert, key } = readCredentials(await readFile(server.kubeconfig, "utf8"));
  const { hostname, port } = new URL(server.url);
  let text = "";
  const socket = connect({ host: hostname, port: Number(port), ca, cert, key });
  socket.on("data", (data: Buffer) => (text += data.toString("latin1")));
  await new Promise<void>((resolve) => socket.once("secureConnect", () => resolve()));
  socket.write(`GET ${path} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nAccept: application/json\r\n\r\n`);
  for (let i = 0; i < 200 && !text.includes("\r\n\r\n"); i++) await Bun.sleep(10);
  expect(text).toStartWith("HTTP/1.1 200 OK");
  return { socket, received: () => text };
}

test("a watch whose client stops reading holds up no other watch, and gets every event once it reads again", async () => {
  const ns = "fanout-stalled";
  await createNamespace(server, ns);
  const start = (await (await server.request("GET", collection(ns))).json()).metadata.resourceVersion;
  const path = `${collection(ns)}?watch=true&resourceVersion=${start}`;
  const stalled = await socketWatch(path);
  stalled.socket.pause();
  const reading = await openWatch(server, path);
  // 24 MB of events: more than the loopback socket buffers hold for a client that does not read.
  const big = "x".repeat(500_000);
  const names = Array.from({ length: 48 }, (_, i) => `big-${i}`);
  for (const name of names) await createConfigMap(server, ns, name, { data: { big } });
  const events = await reading.until((e) => e.object.metadata.name === names.at(-1), 30_000);
  expect(events.map((e) => e.object.metadata.name)).toEqual(names);
  await reading.close();
  const before = stalled.received().length;
  stalled.socket.resume();
  for (let i = 0; i < 600 && !stalled.received().includes(`"name":"${names.at(-1)}"`); i++) await Bun.sleep(50);
  expect(before).toBeLessThan(big.length * names.length);
  const arrived = [...stalled.received().matchAll(/"name":"(big-\d+)"/g)].map((match) => match[1]);
  expect(arrived).toEqual(names);
  stalled.socket.destroy();
});

test("a watch ended by timeoutSeconds ends its chunked body and leaves the connection usable, as Go's server does", async () => {
  const ns = "fanout-reuse";
  await createNamespace(server, ns);
  const watch = await socketWatch(`${collection(ns)}?watch=true&timeoutSeconds=1`);
  for (let i = 0; i < 300 && !watch.received().endsWith("\r\n0\r\n\r\n"); i++) await Bun.sleep(10);
  expect(watch.received()).toEndWith("\r\n0\r\n\r\n");
  const { hostname, port } = new URL(server.url);
  const answered = watch.received().length;
  watch.socket.write(`GET /api/v1/namespaces/${ns} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nAccept: application/json\r\n\r\n`);
  for (let i = 0; i < 300 && !watch.received().includes(`"name":"${ns}"`, answered); i++) await Bun.sleep(10);
  expect(watch.received().slice(answered)).toStartWith("HTTP/1.1 200 OK");
  expect(watch.received().slice(answered)).toContain(`"name":"${ns}"`);
  watch.socket.destroy();
});
