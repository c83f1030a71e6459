/** The Table form of lists and watches (Accept: application/json;as=Table): its options and its refusals. */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { createConfigMap, createNamespace, type Json } from "./_api.ts";
import { startServer, type TestServer } from "./harness.ts";
import { WatchStream } from "./watch-stream.ts";

const NS = "tables";
const COLLECTION = `/api/v1/namespaces/${NS}/configmaps`;
const TABLE = "application/json;as=Table;v=v1;g=meta.k8s.io";
let server: TestServer;

beforeAll(async () => {
  server = await startServer();
  await createNamespace(server, NS);
  await createConfigMap(server, NS, "one");
});
afterAll(async () => {
  await server?.stop();
});

test("a Table watch sends the column definitions with its first event only, null after (serveWatch's Fixup sets TableOptions.NoHeaders)", async () => {
  const response = await server.request("GET", `${COLLECTION}?watch=true&fieldSelector=metadata.name%3Done`, {
    headers: { Accept: TABLE },
  });
  expect(response.status).toBe(200);
  const watch = new WatchStream(response);
  try {
    const first = await watch.next();
    expect(first?.type).toBe("ADDED");
    expect(first?.object.columnDefinitions.map((column: Json) => column.name)).toEqual(["Name", "Data", "Age"]);
    const patched = await server.request("PATCH", `${COLLECTION}/one`, {
      body: JSON.stringify({ data: { k: "v" } }),
      headers: { "Content-Type": "application/merge-patch+json" },
    });
    expect(patched.status).toBe(200);
    const second = await watch.next();
    expect(second?.type).toBe("MODIFIED");
    expect(second?.object).toMatchObject({ kind: "Table", apiVersion: "meta.k8s.io/v1", columnDefinitions: null });
    expect(second?.object.rows[0].cells[0]).toBe("one");
  } finally {
    await watch.close();
  }
});
