/** ConfigMap writers that keep creating until stopped, recording the resourceVersion of every acknowledged create. */
import { expect } from "bun:test";
import type { TestServer } from "./harness.ts";

export interface Acknowledged {
  name: string;
  revision: number;
}

export interface Writers {
  acknowledged: Acknowledged[];
  /** Stops the writers; resolves once every create in flight is answered. */
  stop(): Promise<void>;
}

export function startConfigMapWriters(server: TestServer, count: number): Writers {
  const acknowledged: Acknowledged[] = [];
  let writing = true;
  const writer = async (id: number) => {
    for (let i = 0; writing; i++) {
      const name = `w${id}-${i}`;
      const response = await server.request("POST", "/api/v1/namespaces/default/configmaps", {
        body: JSON.stringify({ metadata: { name }, data: { id: String(id) } }),
        headers: { "Content-Type": "application/json" },
      });
      expect(response.status).toBe(201);
      acknowledged.push({ name, revision: Number((await response.json()).metadata.resourceVersion) });
    }
  };
  const running = Array.from({ length: count }, (_, id) => writer(id));
  return {
    acknowledged,
    async stop() {
      writing = false;
      await Promise.all(running);
    },
  };
}
