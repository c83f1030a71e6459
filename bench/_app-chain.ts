/**
 * The request chain's own cost, without TLS or sockets: the whole server in-process (core/server/testing.ts, the
 * source rather than the binary), its chain called directly one request after the other, measured in CPU time.
 * It shows how much of a request's cost over the network is kubun's filters and handler.
 */
import { startInProcess } from "../core/server/testing.ts";

const WARM_UP = 2000;
const MEASURED = 5000;

/** CPU microseconds per GET of each path (each answering 200), best of three rounds. */
export async function appChainCpuMicroseconds(paths: string[]): Promise<Map<string, number>> {
  const server = await startInProcess();
  try {
    const created = await server.request("POST", "/api/v1/namespaces/default/configmaps", {
      body: { metadata: { name: "bench" }, data: { key: "value".repeat(20) } },
    });
    if (created.status !== 201) throw new Error(`seed: ${created.status}`);
    const get = async (path: string, times: number) => {
      for (let i = 0; i < times; i++) {
        const response = await server.request("GET", path);
        await response.arrayBuffer();
        if (response.status !== 200) throw new Error(`${path}: ${response.status}`);
      }
    };
    const best = new Map<string, number>();
    for (const path of paths) await get(path, WARM_UP);
    for (let round = 0; round < 3; round++) {
      for (const path of paths) {
        const before = process.cpuUsage();
        await get(path, MEASURED);
        const used = process.cpuUsage(before);
        const perRequest = (used.user + used.system) / MEASURED;
        best.set(path, Math.min(best.get(path) ?? Infinity, perRequest));
      }
    }
    return best;
  } finally {
    await server.stop();
  }
}
