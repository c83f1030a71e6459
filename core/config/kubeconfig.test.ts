import { expect, test } from "bun:test";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { material, readKubeconfig } from "./kubeconfig.ts";

const dir = mkdtempSync(join(tmpdir(), "kubun-kubeconfig-"));
const write = (name: string, text: string) => {
  writeFileSync(join(dir, name), text);
  return join(dir, name);
};

test("readKubeconfig() reads clusters, users and contexts; material comes inline or from a path relative to the file", async () => {
  write("ca.crt", "CA PEM");
  const path = write(
    "ok.yaml",
    [
      "clusters: [{name: c, cluster: {server: 'https://127.0.0.1:9443/hook', certificate-authority: ca.crt}}]",
      `users: [{name: u, user: {client-key-data: ${Buffer.from("KEY PEM").toString("base64")}}}]`,
      "contexts: [{name: x, context: {cluster: c, user: u}}]",
      "current-context: x",
    ].join("\n"),
  );
  const config = await readKubeconfig(path);
  expect(config.document["current-context"]).toBe("x");
  expect(await material(config, config.document.clusters[0]!.cluster, "certificate-authority")).toBe("CA PEM");
  expect(await material(config, config.document.users[0]!.user, "client-key")).toBe("KEY PEM");
  expect(await material(config, config.document.users[0]!.user, "client-certificate")).toBeUndefined();
});

test("readKubeconfig() refuses a malformed file with the path and the field", async () => {
  const bad = write("bad.yaml", "clusters: [{name: c, cluster: {server: 'not a url', insecure-skip-tls-verify: 'yes'}}]\n");
  await expect(readKubeconfig(bad)).rejects.toThrow(
    `${bad}: [clusters[0].cluster.server: Invalid value: "not a url": must be a URL, clusters[0].cluster.insecure-skip-tls-verify: Invalid value: "yes": must be of type boolean]`,
  );
  await expect(readKubeconfig(write("unnamed.yaml", "users: [{user: {}}]\n"))).rejects.toThrow("users[0].name: Required value");
  await expect(readKubeconfig(join(dir, "missing.yaml"))).rejects.toThrow(`cannot read ${join(dir, "missing.yaml")}`);
});
