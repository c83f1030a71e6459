/**
 * The same-run ceiling of bench/memory.bench.ts, compiled like kubun into its own executable: a trivial Bun.serve
 * HTTPS server answering 200 to everything. Argv: CERT_FILE KEY_FILE; prints its port on stdout.
 */
import { readFileSync } from "node:fs";

const [certFile, keyFile] = process.argv.slice(2);
const server = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  tls: { cert: readFileSync(certFile!, "utf8"), key: readFileSync(keyFile!, "utf8") },
  fetch: () => new Response("ok"),
});
process.stdout.write(`${server.port}\n`);
