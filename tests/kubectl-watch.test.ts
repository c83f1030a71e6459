/** kubectl get -w against kubun: rows for ADDED, MODIFIED and DELETED while another kubectl writes. */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { createConfigMap, createNamespace } from "./_api.ts";
import { startServer, type TestServer } from "./harness.ts";
import { kubectlOk } from "./_kubectl.ts";

let server: TestServer;

beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server?.stop();
});

/** Makes one object go through create, update and delete with separate kubectl commands. */
async function createModifyDelete(namespace: string, name: string): Promise<void> {
  // `create -f -` sends JSON; `kubectl create configmap` would send protobuf (covered in kubectl-crud).
  await kubectlOk(
    server,
    ["create", "-n", namespace, "-f", "-"],
    `{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "${name}"}, "data": {"k": "v"}}`,
  );
  await kubectlOk(server, ["label", "configmap", name, "-n", namespace, "touched=yes"]);
  await kubectlOk(server, ["delete", "configmap", name, "-n", namespace]);
}

test("kubectl get -w --output-watch-events prints a row per ADDED, MODIFIED and DELETED event", async () => {
  await createNamespace(server, "watch-table");
  await createConfigMap(server, "watch-table", "existing");
  const watcher = server.kubectlInBackground(["get", "configmaps", "-n", "watch-table", "-w", "--output-watch-events"]);
  try {
    await watcher.waitFor((out) => /^ADDED\s+existing\s/m.test(out));
    await createModifyDelete("watch-table", "changing");
    const out = await watcher.waitFor((text) => /^DELETED\s+changing\s/m.test(text));
    const rows = out.trim().split("\n");
    const events = rows.slice(1).map((row) => row.split(/\s+/).slice(0, 2).join(" "));
    expect(events.filter((event) => !event.endsWith("kube-root-ca.crt"))).toEqual([
      "ADDED existing",
      "ADDED changing",
      "MODIFIED changing",
      "DELETED changing",
    ]);
    // The server's Table columns for configmaps, as kube-apiserver prints them.
    expect(rows[0]).toMatch(/^EVENT\s+NAME\s+DATA\s+AGE$/);
  } finally {
    await watcher.stop();
  }
});

test("kubectl get -w -o json streams the objects with their event types and growing resourceVersions", async () => {
  await createNamespace(server, "watch-json");
  const watcher = server.kubectlInBackground(["get", "configmaps", "-n", "watch-json", "-w", "--output-watch-events", "-o", "json"]);
  try {
    // The watch is established once an object created after kubectl started shows up.
    await createConfigMap(server, "watch-json", "marker");
    await watcher.waitFor((text) => /"name":\s*"marker"/.test(text));
    await createModifyDelete("watch-json", "changing");
    const out = await watcher.waitFor((text) => /"type":\s*"DELETED"/.test(text));
    const events = parseConcatenatedJson(out).filter((event) => event.object.metadata.name === "changing");
    expect(events.map((event) => event.type)).toEqual(["ADDED", "MODIFIED", "DELETED"]);
    expect(events[1].object.metadata.labels).toEqual({ touched: "yes" });
    const versions = events.map((event) => Number(event.object.metadata.resourceVersion));
    expect(versions[1]).toBeGreaterThan(versions[0]!);
    expect(versions[2]).toBeGreaterThan(versions[1]!);
  } finally {
    await watcher.stop();
  }
});

// deno-lint-ignore no-explicit-any
function parseConcatenatedJson(text: string): any[] {
  // kubectl prints one object after another; each starts with "{" at the start of a line.
  return text.split(/\n(?=\{)/).filter((part) => part.trim() !== "").map((part) => JSON.parse(part));
}
