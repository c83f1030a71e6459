/** A small https server on loopback for tests (an OIDC issuer, a token webhook), with its own CA. */
import { writeFile } from "node:fs/promises";
import { stringify } from "yaml";
import { createCertificateAuthority, type IssuedCertificate, issueServingCertificate } from "../core/server/certificates.ts";

export interface HttpsFixture {
  url: string;
  caPem: string;
  /** Requests received so far. */
  requests: number;
  stop(): Promise<void>;
}

/** `hosts`: the names the serving certificate is valid for besides 127.0.0.1 (a Service's `<name>.<namespace>.svc`). */
export async function startHttpsFixture(
  handler: (request: Request) => Response | Promise<Response>,
  hosts: string[] = [],
): Promise<HttpsFixture> {
  const ca = await createCertificateAuthority("fixture-ca", { days: 1 });
  const serving: IssuedCertificate = await issueServingCertificate(ca, { commonName: "fixture", hosts: ["127.0.0.1", ...hosts], days: 1 });
  const fixture = { url: "", caPem: ca.certPem, requests: 0, stop: async () => {} };
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    tls: { cert: serving.certPem, key: serving.keyPem },
    fetch: (request) => {
      fixture.requests++;
      return handler(request);
    },
  });
  fixture.url = `https://127.0.0.1:${server.port}`;
  fixture.stop = () => server.stop(true);
  return fixture;
}

/** Writes the kubeconfig-format file a --*-webhook-config-file flag reads: `server` (an https URL) trusted by `caPem`. */
export async function writeWebhookKubeconfig(path: string, target: { server: string; caPem: string }): Promise<void> {
  await writeFile(
    path,
    stringify({
      apiVersion: "v1",
      kind: "Config",
      clusters: [{
        name: "webhook",
        cluster: { server: target.server, "certificate-authority-data": Buffer.from(target.caPem).toString("base64") },
      }],
      users: [{ name: "apiserver", user: {} }],
      contexts: [{ name: "webhook", context: { cluster: "webhook", user: "apiserver" } }],
      "current-context": "webhook",
    }),
  );
}
