/**
 * The serving-path cost: one trivial handler served by Bun.serve (TLS) and by kubun's listener
 * (node:tls + node:http + @hono/node-server), loaded the same way from this process.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { listenHttps } from "../core/runtime/listener.ts";
import { rateFor } from "./_load.ts";

const trivialHandler = () => Promise.resolve(new Response("ok"));

export interface ServingPathFigures {
  bunServe: number;
  kubunListener: number;
}

/** `dataDir` is a kubun data directory: its CA and serving certificate are reused. */
export async function servingPathRates(dataDir: string, options: { durationMs: number; concurrency: number }): Promise<ServingPathFigures> {
  const [ca, cert, key] = await Promise.all(
    ["ca.crt", "apiserver.crt", "apiserver.key"].map((file) => readFile(join(dataDir, file), "utf8")),
  );
  const load = (port: number) =>
    rateFor(options.durationMs, options.concurrency, async () => {
      const response = await fetch(`https://127.0.0.1:${port}/`, { tls: { ca } });
      await response.text();
    });

  const bun = Bun.serve({ hostname: "127.0.0.1", port: 0, tls: { cert, key }, fetch: trivialHandler });
  let bunServe: number;
  try {
    bunServe = await load(bun.port!);
  } finally {
    await bun.stop(true);
  }

  const kubun = await listenHttps(trivialHandler, { host: "127.0.0.1", port: 0, key, cert, clientCA: ca, shutdownGraceMs: 100 });
  try {
    return { bunServe, kubunListener: await load(kubun.port) };
  } finally {
    await kubun.close();
  }
}
