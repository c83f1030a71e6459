/**
 * POST of a JSON body to a webhook over https (node:https), within a deadline, trusting only the given CA
 * (or the system roots) and presenting the configured credentials. The deadline travels as `?timeout=Ns`,
 * as client-go sends it.
 */
import { Buffer } from "node:buffer";
import { isIP } from "node:net";
import { nodeHttps } from "../runtime/lazy-builtins.ts";
import { StatusError } from "../api/errors.ts";
import { isPlainObject } from "../api/types.ts";
import type { CallTarget } from "./endpoint.ts";

/** What a caller presents to the webhook (a kubeconfig user's credentials); none is fine. */
export interface ClientCredentials {
  cert?: string;
  key?: string;
  token?: string;
  username?: string;
  password?: string;
}

/** A failed call; `status` is the HTTP answer when there was one. */
export class PostFailure extends Error {
  readonly status?: StatusError;

  constructor(message: string, status?: StatusError) {
    super(message);
    this.name = "PostFailure";
    this.status = status;
  }
}

function authorizationOf(credentials: ClientCredentials | undefined): string | undefined {
  if (credentials?.token) return `Bearer ${credentials.token}`;
  if (credentials?.username) return `Basic ${Buffer.from(`${credentials.username}:${credentials.password ?? ""}`).toString("base64")}`;
  return undefined;
}

/** client-go's error for a non-2xx answer: the Status it carries, else a generic one with the code. */
function answerError(code: number, text: string): StatusError {
  try {
    const body: unknown = JSON.parse(text);
    if (isPlainObject(body) && body.kind === "Status" && typeof body.message === "string") {
      return new StatusError(code, String(body.reason ?? ""), body.message);
    }
  } catch {
    // Not JSON: fall through to the generic answer.
  }
  return new StatusError(code, "", `the server responded with the status code ${code} but did not return more information`);
}

export function postJson(
  target: CallTarget,
  body: unknown,
  options: { timeoutSeconds: number; credentials?: ClientCredentials },
): Promise<unknown> {
  const url = new URL(target.url);
  url.searchParams.set("timeout", `${options.timeoutSeconds}s`);
  const described = `Post "${url.href}"`;
  const payload = JSON.stringify(body);
  const headers: Record<string, string | number> = {
    "Content-Type": "application/json",
    Accept: "application/json",
    "Content-Length": Buffer.byteLength(payload),
  };
  const authorization = authorizationOf(options.credentials);
  if (authorization) headers.Authorization = authorization;
  const host = target.connect?.host ?? url.hostname.replace(/^\[|\]$/g, "");
  return new Promise((resolve, reject) => {
    const settle = (done: () => void) => {
      clearTimeout(timer);
      done();
    };
    const req = nodeHttps().request({
      host,
      port: target.connect?.port ?? (url.port === "" ? 443 : Number(url.port)),
      path: `${url.pathname}${url.search}`,
      method: "POST",
      headers,
      // TLS verifies the name in the URL even when connecting to a service's endpoint address.
      servername: isIP(url.hostname.replace(/^\[|\]$/g, "")) ? undefined : url.hostname,
      ca: target.ca,
      cert: options.credentials?.cert,
      key: options.credentials?.key,
    }, (response) => {
      let text = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => (text += chunk));
      response.on("end", () =>
        settle(() => {
          const code = response.statusCode ?? 0;
          if (code < 200 || code > 299) {
            const status = answerError(code, text);
            return reject(new PostFailure(status.message, status));
          }
          try {
            resolve(JSON.parse(text));
          } catch {
            reject(new PostFailure(`${described}: the response body is not JSON`));
          }
        }));
      response.on("error", (error) => settle(() => reject(new PostFailure(`${described}: ${error.message}`))));
    });
    const timer = setTimeout(() => req.destroy(new Error("context deadline exceeded")), options.timeoutSeconds * 1000);
    req.on("error", (error) => settle(() => reject(new PostFailure(`${described}: ${error.message}`))));
    req.end(payload);
  });
}
