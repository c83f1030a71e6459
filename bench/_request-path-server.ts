/**
 * The real server from source behind the real listener, with one thing varied, for bench/request-path-bisect.ts:
 * `full` serves as main.ts does; `answer-at-once` answers every request "ok" before any filter (the listener's cost
 * inside the whole server's process); `pre-verified` hands the chain the admin's peer certificate already verified,
 * as core/server/testing.ts does, so the listener's certificate reading and chain check drop out; `floor-node-tls`
 * and `floor-bun-listen` serve the full chain over bench/_floor-listener.ts instead of core/runtime's listener.
 * Run: bun bench/_request-path-server.ts <variant> <kube-apiserver flags>; prints the port. SIGUSR1 writes a line
 * "MARK" to stderr, so JavaScriptCore's GC log (BUN_JSC_logGC=1) can be cut to a measured window; SIGUSR2 counts
 * heap cells (_cell-window.ts).
 */
import { loadPluginSet } from "../plugin-set.ts";
import { completeResponse } from "../core/runtime/fetch-adapter.ts";
import { type ConnectionHandler, listenHttps } from "../core/runtime/listener.ts";
import { parseFlags } from "../core/server/flags.ts";
import { runServer } from "../core/server/run.ts";
import { countCellsOnSignal } from "./_cell-window.ts";
import { listenFloor } from "./_floor-listener.ts";

export type ServerVariant = "full" | "answer-at-once" | "pre-verified" | "floor-node-tls" | "floor-bun-listen";

const ADMIN_VERIFIED = { commonName: "admin", organizations: ["system:masters"], verified: true, chain: [] };

function varied(variant: ServerVariant, chain: ConnectionHandler): ConnectionHandler {
  if (variant === "answer-at-once") return () => completeResponse("ok");

  if (variant === "pre-verified") {
    return (request, info) =>
      chain(request, { ...info, peerCertificate: ADMIN_VERIFIED, onResponseDone: (callback) => info.onResponseDone?.(callback) });
  }
  return chain;
}

if (import.meta.main) {
  const [variant, ...flags] = process.argv.slice(2) as [ServerVariant, ...string[]];
  const config = parseFlags(flags);
  const server = await runServer(config, {
    ...(await loadPluginSet(config)),
    log: () => {},
    listen: (chain, options) =>
      variant === "floor-node-tls" || variant === "floor-bun-listen"
        ? listenFloor(variant === "floor-node-tls" ? "node-tls" : "bun-listen", chain, options)
        : listenHttps(varied(variant, chain), options),
  });
  process.on("SIGUSR1", () => process.stderr.write("MARK\n"));
  countCellsOnSignal();
  console.log(server.port);
}
