/** Audit test helpers: policy files and reading events from an audit log or a webhook sink. */
import { existsSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import type { Json } from "./_api.ts";

export async function writePolicy(path: string, rules: string): Promise<void> {
  await writeFile(path, `apiVersion: audit.k8s.io/v1\nkind: Policy\n${rules}`);
}

export async function readEvents(path: string): Promise<Json[]> {
  if (!existsSync(path)) return [];
  return (await readFile(path, "utf8")).split("\n").filter((line) => line !== "").map((line) => JSON.parse(line));
}

/** Polls until `found` yields a value (events are written as responses end; a watch's last one just after). */
export async function eventually<T>(found: () => Promise<T | undefined>, what: string): Promise<T> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const value = await found();
    if (value !== undefined) return value;
    await Bun.sleep(50);
  }
  throw new Error(`never saw ${what}`);
}
