/**
 * The whole server in-process, for tests beside the code: runServer from source with every plugin the flags
 * name, on a temporary data directory, with the request chain called directly instead of over TLS. A request
 * names its user as a verified client certificate would (CN = user, O = groups), so authentication,
 * authorization, admission and storage are the real ones.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadPluginSet } from "../../plugin-set.ts";
import type { ConnectionHandler } from "../runtime/listener.ts";
import { parseFlags } from "./flags.ts";
import { runServer } from "./run.ts";

export interface TestUser {
  name: string;
  groups?: string[];
}

export const ADMIN: TestUser = { name: "admin", groups: ["system:masters"] };

export interface RequestOptions {
  /** Sent as JSON unless it is a string. */
  body?: unknown;
  headers?: Record<string, string>;
  /** Default: the admin (system:masters); null sends no client certificate (a token's request, an anonymous one). */
  user?: TestUser | null;
}

export interface InProcessServer {
  request(method: string, path: string, options?: RequestOptions): Promise<Response>;
  /** The chain's own answer: a Response when it answered at once, a promise when something on its path waited. */
  answer(method: string, path: string, options?: RequestOptions): Response | Promise<Response>;
  /** The JSON answer of a request, with its status. */
  // deno-lint-ignore no-explicit-any -- tests read answers of every kind by field
  json(method: string, path: string, options?: RequestOptions): Promise<{ status: number; body: any }>;
  stop(): Promise<void>;
}

/** Starts the server with `flags` (kube-apiserver's, as on the command line); controllers are off unless named. */
export async function startInProcess(flags: string[] = []): Promise<InProcessServer> {
  const dataDir = await mkdtemp(join(tmpdir(), "kubun-in-process-"));
  const config = parseFlags(["--data-dir", dataDir, "--controllers=", ...flags]);
  let handle: ConnectionHandler | undefined;
  const server = await runServer(config, {
    ...(await loadPluginSet(config)),
    log: () => {},
    listen: (handler) => {
      handle = handler;
      return Promise.resolve({ port: 0, close: () => Promise.resolve() });
    },
  });
  const answer = (method: string, path: string, options: RequestOptions = {}) => {
    const user = options.user === undefined ? ADMIN : options.user;
    const body = options.body === undefined || typeof options.body === "string" ? options.body : JSON.stringify(options.body);
    const headers = { ...(typeof options.body === "object" ? { "Content-Type": "application/json" } : {}), ...options.headers };
    return handle!(new Request(`https://127.0.0.1${path}`, { method, body, headers }), {
      peerCertificate: user ? { commonName: user.name, organizations: user.groups ?? [], verified: true, chain: [] } : undefined,
      requestTarget: path,
      remoteAddress: "127.0.0.1",
    });
  };
  const request = (method: string, path: string, options?: RequestOptions) => Promise.resolve(answer(method, path, options));
  return {
    request,
    answer,
    async json(method, path, options) {
      const response = await request(method, path, options);
      return { status: response.status, body: await response.json() };
    },
    async stop() {
      await server.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
