/** JSON over https with a chosen CA and optional client certificate (node:https), for the webhooks and the OIDC issuer. */
import { nodeHttps } from "../../core/runtime/lazy-builtins.ts";

const TIMEOUT_MS = 30_000;

export interface HttpsJsonOptions {
  method?: "GET" | "POST";
  body?: unknown;
  /** PEM CA bundle; default: the system roots. */
  ca?: string;
  cert?: string;
  key?: string;
  insecureSkipVerify?: boolean;
}

export function httpsJson(url: URL, options: HttpsJsonOptions = {}): Promise<{ status: number; body: unknown }> {
  const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
  const headers: Record<string, string | number> = { Accept: "application/json" };
  if (payload !== undefined) Object.assign(headers, { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(payload) });
  return new Promise((resolve, reject) => {
    const req = nodeHttps().request(
      url.href,
      {
        method: options.method ?? "GET",
        ca: options.ca,
        cert: options.cert,
        key: options.key,
        rejectUnauthorized: !options.insecureSkipVerify,
        headers,
        timeout: TIMEOUT_MS,
      },
      (response) => {
        let text = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => (text += chunk));
        response.on("end", () => {
          try {
            resolve({ status: response.statusCode ?? 0, body: JSON.parse(text) });
          } catch {
            reject(new Error(`${url.origin} answered ${response.statusCode} with a body that is not JSON`));
          }
        });
      },
    );
    req.on("timeout", () => req.destroy(new Error(`${url.origin} did not answer in time`)));
    req.on("error", reject);
    req.end(payload);
  });
}
