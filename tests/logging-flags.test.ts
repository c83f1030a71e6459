/** component-base/logs' flags on the compiled binary: --logging-format text|json and -v with kube's httplog at 3. */
import { afterAll, expect, test } from "bun:test";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { asAdminOnDisk, runKubun, startKubun } from "./_kubun-process.ts";

const scratch = await mkdtemp(join(tmpdir(), "kubun-logging-"));
afterAll(() => rm(scratch, { recursive: true, force: true }));

test("--logging-format=json -v=3: every line is NewJSONLogger's JSON, and each request gets WithLogging's HTTP line", async () => {
  const dataDir = join(scratch, "json");
  const server = await startKubun(dataDir, ["--logging-format=json", "-v=3"]);
  try {
    expect((await asAdminOnDisk(dataDir, server.url, "/api/v1/namespaces/default/configmaps")).status).toBe(200);
    const entries = server.log().trim().split("\n").map((line) => JSON.parse(line));
    expect(entries.find((entry) => String(entry.msg).startsWith("serving the Kubernetes API on"))).toMatchObject({ v: 0 });
    const http = entries.find((entry) => entry.msg === "HTTP" && entry.URI === "/api/v1/namespaces/default/configmaps");
    expect(http).toMatchObject({ v: 3, verb: "LIST", resp: 200, srcIP: "127.0.0.1" });
    expect(typeof http.ts).toBe("number");
    expect(http["audit-ID"]).toMatch(/^[0-9a-f-]{36}$/);
  } finally {
    expect(await server.stop()).toBe(0);
  }
});

test("the default text format writes klog headers and no HTTP lines below -v=3", async () => {
  const dataDir = join(scratch, "text");
  const server = await startKubun(dataDir);
  try {
    expect((await asAdminOnDisk(dataDir, server.url, "/api/v1/namespaces")).status).toBe(200);
    const serving = server.log().split("\n").find((line) => line.includes("serving the Kubernetes API on"))!;
    expect(serving).toMatch(/^I\d{4} \d{2}:\d{2}:\d{2}\.\d{6} +\d+ apiserver\] serving the Kubernetes API on https:/);
    expect(server.log()).not.toContain("] HTTP");
  } finally {
    expect(await server.stop()).toBe(0);
  }
});

test("an unsupported --logging-format stops start-up with component-base/logs' Validate message", async () => {
  const answer = await runKubun(join(scratch, "xml"), ["--logging-format=xml"]);
  expect(answer).toMatchObject({ exitCode: 1 });
  expect("log" in answer && answer.log).toContain('format: Invalid value: "xml": Unsupported log format');
});
