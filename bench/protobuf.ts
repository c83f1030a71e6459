/**
 * Protobuf against JSON over HTTP on the compiled server: GET of a 500-item list and sequential creates, the same
 * objects in both encodings, with the protobuf ÷ JSON ratio. Not a test.
 * Run: node_modules/.bin/bun bench/protobuf.ts (after bash compile.sh).
 */
import { encodeProtobufObject, PROTOBUF_MEDIA_TYPE } from "../core/api/protobuf/mod.ts";
import { startServer, type TestServer } from "../tests/harness.ts";
import { expectStatus, latencies, percentile, rate } from "./_load.ts";

const NAMESPACE = "bench-protobuf";
const LIST_ROUNDS = 40;
// Creates in each encoding; together they make the 500-item list.
const CREATES = 250;
const JSON_HEADERS = { "Content-Type": "application/json", Accept: "application/json" };
const PROTOBUF_HEADERS = { "Content-Type": PROTOBUF_MEDIA_TYPE, Accept: `${PROTOBUF_MEDIA_TYPE},application/json` };

function configMap(name: string): Record<string, unknown> {
  const data = Object.fromEntries(Array.from({ length: 6 }, (_, i) => [`key-${i}`, `value-${i}-`.repeat(8)]));
  return { apiVersion: "v1", kind: "ConfigMap", metadata: { name, namespace: NAMESPACE, labels: { app: "bench", tier: "backend" } }, data };
}

function bodyIn(format: "json" | "protobuf", object: Record<string, unknown>): string | Uint8Array<ArrayBuffer> {
  return format === "json" ? JSON.stringify(object) : (encodeProtobufObject(object, "v1", "ConfigMap") as Uint8Array<ArrayBuffer>);
}

function headersOf(format: "json" | "protobuf"): Record<string, string> {
  return format === "json" ? JSON_HEADERS : PROTOBUF_HEADERS;
}

async function create(server: TestServer, format: "json" | "protobuf", name: string): Promise<void> {
  const response = await server.request("POST", `/api/v1/namespaces/${NAMESPACE}/configmaps`, {
    body: bodyIn(format, configMap(name)),
    headers: headersOf(format),
  });
  expectStatus(response, 201, `create ${name} in ${format}`);
  await response.arrayBuffer();
}

/** Per-request latencies of the list and the size of one answer. */
async function listTimes(server: TestServer, format: "json" | "protobuf"): Promise<{ samples: number[]; bytes: number }> {
  let bytes = 0;
  const samples = await latencies(LIST_ROUNDS, async () => {
    const response = await server.request("GET", `/api/v1/namespaces/${NAMESPACE}/configmaps?labelSelector=app%3Dbench`, {
      headers: headersOf(format),
    });
    expectStatus(response, 200, `list in ${format}`);
    bytes = (await response.arrayBuffer()).byteLength;
  });
  return { samples, bytes };
}

function ms(value: number): string {
  return `${value.toFixed(1)} ms`;
}

async function main(): Promise<void> {
  const server = await startServer();
  const rows: [string, string][] = [];
  try {
    const namespace = JSON.stringify({ apiVersion: "v1", kind: "Namespace", metadata: { name: NAMESPACE } });
    expectStatus(await server.request("POST", "/api/v1/namespaces", { body: namespace, headers: JSON_HEADERS }), 201, "create namespace");
    const createRates = { json: 0, protobuf: 0 };
    for (const format of ["json", "protobuf"] as const) {
      createRates[format] = await rate(CREATES, 1, (i) => create(server, format, `${format}-${String(i).padStart(4, "0")}`));
    }
    rows.push([`sequential creates/s, JSON / protobuf`, `${Math.round(createRates.json)}/s / ${Math.round(createRates.protobuf)}/s`]);
    rows.push(["ratio protobuf ÷ JSON create rate", (createRates.protobuf / createRates.json).toFixed(2)]);

    // The label selector keeps the namespace's root CA ConfigMap out: both lists hold the 500 created items.
    const json = await listTimes(server, "json");
    const protobuf = await listTimes(server, "protobuf");
    const [jsonP50, protobufP50] = [percentile(json.samples, 50), percentile(protobuf.samples, 50)];
    rows.push([`GET list of ${2 * CREATES} ConfigMaps, JSON p50 (${json.bytes} B)`, ms(jsonP50)]);
    rows.push([`GET list of ${2 * CREATES} ConfigMaps, protobuf p50 (${protobuf.bytes} B)`, ms(protobufP50)]);
    rows.push(["ratio protobuf ÷ JSON list latency", (protobufP50 / jsonP50).toFixed(2)]);
  } finally {
    await server.stop();
  }
  console.log(`| Measure (${navigator.hardwareConcurrency} cores, Bun ${Bun.version}) | Result |`);
  console.log("|---|---|");
  for (const [measure, result] of rows) console.log(`| ${measure} | ${result} |`);
}

await main();
