/**
 * Authenticating proxy: X-Remote-* headers name the user only over a client certificate from the request-header
 * CA with an allowed CN. AlwaysDeny's Forbidden message shows which user the server saw (system:masters passes it).
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse } from "yaml";
import { createCertificateAuthority, issueClientCertificate, type IssuedCertificate } from "../core/server/certificates.ts";
import { startServer, type TestServer } from "./harness.ts";

let server: TestServer;
let serverCa: string;
let proxyCert: IssuedCertificate;
let strangerCert: IssuedCertificate;

const PROXY_HEADERS = { "X-Remote-User": "alice", "X-Remote-Group": "devs", "X-Remote-Extra-Scopes": "read" };

beforeAll(async () => {
  const proxyCa = await createCertificateAuthority("front-proxy-ca", { days: 1 });
  proxyCert = await issueClientCertificate(proxyCa, { commonName: "front-proxy", days: 1 });
  strangerCert = await issueClientCertificate(proxyCa, { commonName: "not-the-proxy", days: 1 });
  const caFile = join(await mkdtemp(join(tmpdir(), "kubun-proxy-ca-")), "ca.crt");
  await writeFile(caFile, proxyCa.certPem);
  server = await startServer([
    "--authorization-mode=AlwaysDeny",
    "--anonymous-auth=false",
    `--requestheader-client-ca-file=${caFile}`,
    "--requestheader-allowed-names=front-proxy",
    "--requestheader-username-headers=X-Remote-User",
    "--requestheader-group-headers=X-Remote-Group",
    "--requestheader-extra-headers-prefix=X-Remote-Extra-",
  ]);
  serverCa = Buffer.from(parse(await readFile(server.kubeconfig, "utf8")).clusters[0].cluster["certificate-authority-data"], "base64")
    .toString();
});
afterAll(async () => {
  await server?.stop();
});

function listNamespacesWith(cert: IssuedCertificate): Promise<Response> {
  return fetch(`${server.url}/api/v1/namespaces`, { headers: PROXY_HEADERS, tls: { ca: serverCa, cert: cert.certPem, key: cert.keyPem } });
}

test("the proxy's client certificate makes the server trust X-Remote-User", async () => {
  const response = await listNamespacesWith(proxyCert);
  expect(response.status).toBe(403);
  expect((await response.json()).message).toStartWith('namespaces is forbidden: User "alice" cannot list resource "namespaces"');
});

test("the same headers over the admin certificate are ignored: the request is the admin's, whose system:masters passes AlwaysDeny", async () => {
  // kube's AuthorizeClientBearerToken asks NewPrivilegedGroups(system:masters) before every mode: alice would be forbidden.
  const response = await server.request("GET", "/api/v1/namespaces", { headers: PROXY_HEADERS });
  expect(response.status).toBe(200);
});

test("the headers without any client certificate are ignored: 401", async () => {
  expect((await server.requestAnonymous("GET", "/api/v1/namespaces", { headers: PROXY_HEADERS })).status).toBe(401);
});

test("a certificate from the proxy CA whose CN is not allowed is rejected with 401", async () => {
  expect((await listNamespacesWith(strangerCert)).status).toBe(401);
});
