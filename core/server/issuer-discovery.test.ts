import { expect, test } from "bun:test";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadServiceAccountKeys } from "../auth/service-account/keys.ts";
import { issuerDiscovery } from "./issuer-discovery.ts";

async function keys() {
  return (await loadServiceAccountKeys({
    dataDir: await mkdtemp(join(tmpdir(), "kubun-discovery-")),
    serviceAccountSigningKeyFile: "",
    serviceAccountKeyFile: [],
  })).verifying;
}

test("issuerDiscovery() is absent for an issuer that is not a plain https URL", async () => {
  const verifying = await keys();
  expect(issuerDiscovery("kubernetes/serviceaccount", verifying)).toBeUndefined();
  expect(issuerDiscovery("https://issuer?x=1", verifying)).toBeUndefined();
});

test("the JWKS lists the public keys only, as application/jwk-set+json cached for an hour", async () => {
  const verifying = await keys();
  const response = issuerDiscovery("https://issuer", verifying)!.jwks();
  expect(response.headers.get("content-type")).toBe("application/jwk-set+json");
  expect(response.headers.get("cache-control")).toBe("public, max-age=3600");
  const { keys: listed } = await response.json();
  expect(listed).toEqual([verifying[0]!.jwk]);
  expect(listed[0].d).toBeUndefined();
});
