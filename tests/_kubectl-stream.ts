/** A long-running kubectl (e.g. `get -w`) whose output is read while it runs. */
import { type ChildProcess, spawn } from "node:child_process";

export const KUBECTL = "/usr/bin/kubectl";

export class KubectlProcess {
  #child: ChildProcess;
  #stdout = "";
  #stderr = "";
  #exited: Promise<void>;

  constructor(kubeconfig: string, args: string[]) {
    this.#child = spawn(KUBECTL, ["--kubeconfig", kubeconfig, ...args], { stdio: ["ignore", "pipe", "pipe"] });
    this.#child.stdout!.on("data", (chunk: Buffer) => (this.#stdout += chunk.toString()));
    this.#child.stderr!.on("data", (chunk: Buffer) => (this.#stderr += chunk.toString()));
    this.#exited = new Promise((resolve) => this.#child.once("exit", () => resolve()));
  }

  get stdout(): string {
    return this.#stdout;
  }

  /** Waits until the output satisfies `done`, failing with the output so far after timeoutMs. */
  async waitFor(done: (stdout: string) => boolean, timeoutMs = 10_000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    while (!done(this.#stdout)) {
      if (Date.now() > deadline) {
        throw new Error(`kubectl output did not arrive in ${timeoutMs} ms.\nstdout:\n${this.#stdout}\nstderr:\n${this.#stderr}`);
      }
      if (this.#child.exitCode !== null) {
        throw new Error(`kubectl exited (${this.#child.exitCode}).\nstdout:\n${this.#stdout}\nstderr:\n${this.#stderr}`);
      }
      await Bun.sleep(25);
    }
    return this.#stdout;
  }

  /** Waits for kubectl to exit by itself (a followed stream the server ended), failing after timeoutMs. */
  async waitForExit(timeoutMs = 10_000): Promise<{ code: number | null; stdout: string; stderr: string }> {
    const timer = setTimeout(() => this.#child.kill("SIGKILL"), timeoutMs);
    await this.#exited;
    clearTimeout(timer);
    if (this.#child.signalCode === "SIGKILL") {
      throw new Error(`kubectl did not exit in ${timeoutMs} ms.\nstdout:\n${this.#stdout}\nstderr:\n${this.#stderr}`);
    }
    return { code: this.#child.exitCode, stdout: this.#stdout, stderr: this.#stderr };
  }

  async stop(): Promise<void> {
    if (this.#child.exitCode === null && this.#child.signalCode === null) this.#child.kill("SIGTERM");
    await this.#exited;
  }
}
