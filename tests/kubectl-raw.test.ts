/** kubectl get --raw on the server's own non-API paths, byte for byte as kube-apiserver 1.26 writes them. */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { startServer, type TestServer } from "./harness.ts";
import { kubectlOk } from "./_kubectl.ts";

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server?.stop();
});

test("routes.Version handleVersion: /version is WriteRawJSON's indented JSON with no newline after, for every client", async () => {
  const raw = await kubectlOk(server, ["get", "--raw", "/version"]);
  const info = JSON.parse(raw);
  expect(Object.keys(info)).toEqual([
    "major",
    "minor",
    "gitVersion",
    "gitCommit",
    "gitTreeState",
    "buildDate",
    "goVersion",
    "compiler",
    "platform",
  ]);
  expect(raw).toBe(JSON.stringify(info, null, 2));
  expect(raw.split("\n")[1]).toBe('  "major": "1",');
  // ?pretty=false asks nothing of WriteRawJSON either.
  expect(await (await server.request("GET", "/version?pretty=false")).text()).toBe(raw);
});
