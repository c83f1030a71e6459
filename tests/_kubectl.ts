/** kubectl calls that must succeed, shared by the end-to-end tests. */
import { expect } from "bun:test";
import type { CommandResult } from "./harness.ts";

/** Anything that runs kubectl with its own credentials: the admin TestServer or a TestUser. */
export interface KubectlRunner {
  kubectl(args: string[], opts?: { stdin?: string }): Promise<CommandResult>;
}

/** Runs kubectl, asserts it exited 0 with nothing on stderr, and returns its stdout. */
export async function kubectlOk(runner: KubectlRunner, args: string[], stdin?: string): Promise<string> {
  const result = await runner.kubectl(args, { stdin });
  expect({ args, code: result.code, stderr: result.stderr }).toEqual({ args, code: 0, stderr: "" });
  return result.stdout;
}
