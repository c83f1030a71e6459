/**
 * Large lists are read from storage as they are written (issue 20 item 6) and their JSON is the stored text with
 * the resourceVersion spliced in (issue 16). The storage reads are observed through kube's own
 * apiserver_storage_transformation_operations_total{transformation_type="from_storage"}, which counts every value
 * read through the encryption-at-rest decorator (here the identity provider for ConfigMaps).
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { connect, type TLSSocket } from "node:tls";
import { createNamespace, type Json, ROOT_CA_CONFIGMAP, sendJson } from "./_api.ts";
import { readCredentials, startServer, type TestServer } from "./harness.ts";
import { decodeProtobufObject, encodeProtobufObject, PROTOBUF_MEDIA_TYPE } from "../core/api/protobuf/mod.ts";

const NS = "streaming";
const COUNT = 4000;
/** 10 KB per object: the list (40 MB) is far larger than the socket buffers between the server and a paused client. */
const PAYLOAD = "p".repeat(10_000);
const COLLECTION = `/api/v1/namespaces/${NS}/configmaps`;
const nameOf = (i: number) => `cm-${String(i).padStart(5, "0")}`;
const dir = mkdtempSync(join(tmpdir(), "kubun-list-streaming-"));
let server: TestServer;

beforeAll(async () => {
  const config = join(dir, "encryption.yaml");
  writeFileSync(
    config,
    "apiVersion: apiserver.config.k8s.io/v1\nkind: EncryptionConfiguration\nresources:\n- resources: [configmaps]\n  providers:\n  - identity: {}\n",
    { mode: 0o600 },
  );
  // The garbage collector's periodic full re-list would count in the reads observed; it has no part in this test.
  server = await startServer([`--encryption-provider-config=${config}`, "--controllers=*,-garbagecollector"]);
  await createNamespace(server, NS);
  for (let start = 0; start < COUNT; start += 50) {
    await Promise.all(Array.from({ length: 50 }, async (_, i) => {
      const body = { apiVersion: "v1", kind: "ConfigMap", metadata: { name: nameOf(start + i) }, data: { payload: PAYLOAD } };
      expect((await sendJson(server, "POST", COLLECTION, body)).status).toBe(201);
    }));
  }
}, 300_000);
afterAll(async () => {
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** Values read from storage so far, by kube's transformation counter. */
async function valuesRead(): Promise<number> {
  const text = await (await server.request("GET", "/metrics")).text();
  const line = text.split("\n").find((l) =>
    l.startsWith("apiserver_storage_transformation_operations_total{") && l.includes('transformation_type="from_storage"')
  );
  return Number(line?.split(" ").pop() ?? 0);
}

/** A GET over a raw TLS socket whose reading the test controls. */
async function openRawGet(
  path: string,
): Promise<{ socket: TLSSocket; received: Buffer[]; firstData: Promise<void>; ended: Promise<void> }> {
  const { ca, cert, key } = readCredentials(await readFile(server.kubeconfig, "utf8"));
  const { port } = new URL(server.url);
  const received: Buffer[] = [];
  const socket = connect({ host: "127.0.0.1", port: Number(port), ca, cert, key }, () => {
    socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAccept: application/json\r\nConnection: close\r\n\r\n`);
  });
  const firstData = new Promise<void>((resolve) => socket.once("data", () => resolve()));
  socket.on("data", (chunk: Buffer) => received.push(chunk));
  const ended = new Promise<void>((resolve, reject) => {
    socket.on("end", () => resolve());
    socket.on("error", reject);
  });
  return { socket, received, firstData, ended };
}

function chunkedBody(raw: string): string {
  const body: string[] = [];
  let at = raw.indexOf("\r\n\r\n") + 4;
  for (;;) {
    const end = raw.indexOf("\r\n", at);
    const size = Number.parseInt(raw.slice(at, end), 16);
    if (!size) return body.join("");
    body.push(raw.slice(end + 2, end + 2 + size));
    at = end + 2 + size + 2;
  }
}

test(
  "a large list starts before storage is read to its end, reads at one revision, and ends complete (readListBatches, kube's GetList at one revision)",
  async () => {
    const before = await valuesRead();
    const list = await openRawGet(COLLECTION);
    await list.firstData;
    list.socket.pause();
    // Changes after the list's revision: batches read at later revisions would show the new data and the new object.
    const patched = await server.request("PATCH", `${COLLECTION}/${nameOf(COUNT - 1)}`, {
      body: JSON.stringify({ data: { payload: "changed" } }),
      headers: { "Content-Type": "application/merge-patch+json" },
    });
    expect(patched.status).toBe(200);
    expect((await sendJson(server, "POST", COLLECTION, { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "zz-late" } })).status)
      .toBe(201);
    const readWhilePaused = (await valuesRead()) - before;
    expect(readWhilePaused).toBeLessThan(COUNT / 2);

    list.socket.resume();
    await list.ended;
    const raw = Buffer.concat(list.received).toString();
    expect(raw).toMatch(/^HTTP\/1.1 200 /);
    expect(raw.slice(0, raw.indexOf("\r\n\r\n"))).toMatch(/transfer-encoding: chunked/i);
    const body: Json = JSON.parse(chunkedBody(raw));
    const names: string[] = body.items.map((item: Json) => item.metadata.name);
    expect(names).toEqual([...Array.from({ length: COUNT }, (_, i) => nameOf(i)), ROOT_CA_CONFIGMAP]);
    expect(body.items[COUNT - 1].data.payload).toBe(PAYLOAD);
    expect(new Set(body.items.map((item: Json) => Number(item.metadata.resourceVersion) <= Number(body.metadata.resourceVersion)))).toEqual(
      new Set([true]),
    );
    expect((await valuesRead()) - before).toBeGreaterThanOrEqual(COUNT);
  },
  120_000,
);

test(
  "pages of a large list with limit are exact across storage batches: items, continue and remainingItemCount (kube's GetList)",
  async () => {
    const names: string[] = (await (await server.request("GET", COLLECTION)).json()).items.map((item: Json) => item.metadata.name);
    const first: Json = await (await server.request("GET", `${COLLECTION}?limit=1200`)).json();
    expect(first.items.map((item: Json) => item.metadata.name)).toEqual(names.slice(0, 1200));
    expect(first.metadata.remainingItemCount).toBe(names.length - 1200);
    const second: Json =
      await (await server.request("GET", `${COLLECTION}?limit=1200&continue=${encodeURIComponent(first.metadata.continue)}`))
        .json();
    expect(second.items.map((item: Json) => item.metadata.name)).toEqual(names.slice(1200, 2400));
    expect(second.metadata.resourceVersion).toBe(first.metadata.resourceVersion);
    const last: Json = await (await server.request("GET", `${COLLECTION}?limit=${names.length}`)).json();
    expect(last.items).toHaveLength(names.length);
    expect(last.metadata.continue).toBeUndefined();
    const metadataOnly: Json = await (await server.request("GET", COLLECTION, {
      headers: { Accept: "application/json;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io" },
    })).json();
    expect(metadataOnly.kind).toBe("PartialObjectMetadataList");
    expect(metadataOnly.items.map((item: Json) => item.metadata.name)).toEqual(names);
  },
  60_000,
);

/** An object's GET text as a typed list's item: without its leading apiVersion and kind (runtime.Scheme setTargetKind types the list only). */
function asListItem(text: string): string {
  const item = text.replace(/^\{"apiVersion":"v1","kind":"[A-Za-z]+",/, "{");
  expect(item.startsWith('{"metadata":{')).toBe(true);
  return item;
}

test("a listed object's JSON is byte for byte its GET without TypeMeta, exact int64 and escapes included (the stored text spliced, not re-serialized)", async () => {
  const pod =
    `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"exact","labels":{"note":"a"}},"spec":{"terminationGracePeriodSeconds":9007199254740993,` +
    `"containers":[{"name":"c","image":"busybox","env":[{"name":"TEXT","value":"é\\"\\u2028<>&\\n"}]}]}}`;
  const created = await server.request("POST", `/api/v1/namespaces/${NS}/pods`, {
    body: pod,
    headers: { "Content-Type": "application/json" },
  });
  expect(created.status).toBe(201);
  // Controllers (the scheduler) may write the pod meanwhile: compare a LIST with the GETs around it that agree.
  const getPod = async () => (await (await server.request("GET", `/api/v1/namespaces/${NS}/pods/exact`)).text()).trimEnd();
  for (let attempt = 0;; attempt++) {
    const before = await getPod();
    const listed = await (await server.request("GET", `/api/v1/namespaces/${NS}/pods`)).text();
    if (before !== (await getPod()) && attempt < 20) continue;
    expect(before).toContain('"terminationGracePeriodSeconds":9007199254740993');
    expect(before).toContain('"managedFields":[');
    expect(listed).toContain(`"items":[${asListItem(before)}]`);
    break;
  }
  const cm = (await (await server.request("GET", `${COLLECTION}/${nameOf(3)}`)).text()).trimEnd();
  expect(await (await server.request("GET", `${COLLECTION}?limit=5`)).text()).toContain(`,${asListItem(cm)},`);
});

test("a large protobuf list, written as read in two passes at one revision, is exactly the whole list's protobuf encoding", async () => {
  for (const limit of ["", "&limit=1500"]) {
    const response = await server.request("GET", `${COLLECTION}?${limit}`, { headers: { Accept: PROTOBUF_MEDIA_TYPE } });
    expect(response.headers.get("content-type")).toBe(PROTOBUF_MEDIA_TYPE);
    const bytes = new Uint8Array(await response.arrayBuffer());
    const revision = (decodeProtobufObject(bytes).object as Json).metadata.resourceVersion;
    const exact = `${COLLECTION}?resourceVersion=${revision}&resourceVersionMatch=Exact${limit}`;
    const list: Json = await (await server.request("GET", exact)).json();
    expect(list.items.length).toBeGreaterThanOrEqual(limit ? 1500 : COUNT);
    expect(Buffer.from(bytes).equals(Buffer.from(encodeProtobufObject(list, "v1", "ConfigMapList")))).toBe(true);
  }
}, 60_000);
