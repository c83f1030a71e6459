/** Polling helpers for the workload end-to-end tests. */
import type { TestServer } from "./harness.ts";

/** Runs kubectl until `done` accepts its stdout; returns that stdout, or throws after `timeoutMs`. */
export async function kubectlUntil(
  server: TestServer,
  args: string[],
  done: (stdout: string) => boolean,
  timeoutMs = 20_000,
): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  let last = "";
  while (Date.now() < deadline) {
    const result = await server.kubectl(args);
    last = result.stdout + result.stderr;
    if (result.code === 0 && done(result.stdout)) return result.stdout;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`kubectl ${args.join(" ")} did not reach the expected state; last output:\n${last}`);
}

export function lines(stdout: string): string[] {
  return stdout.split("\n").map((l) => l.trim()).filter(Boolean);
}
