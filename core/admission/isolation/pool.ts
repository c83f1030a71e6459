/**
 * A pool of pre-started workers that all hold one plugin module. A call goes to the least busy worker; a call
 * that outlives its deadline, or a worker that dies, costs only the calls on that worker: it is terminated
 * (a synchronous loop cannot be interrupted any other way) and a fresh worker takes its place.
 */
import type { ReadOnlyClient } from "../../api/client.ts";
import type { PluginLogger } from "../../auth/plugin-context.ts";
import type { StatusError } from "../../api/errors.ts";
import { startWorker } from "../../runtime/worker.ts";
import { DEFAULT_PLUGIN_TIMEOUT_MS } from "../sdk/mod.ts";
import { pluginCallFailed, pluginTimeout } from "../errors.ts";
import type { CallOutcome, ClientRef, FromWorker, PluginInfo, ToWorker, WireAttributes } from "./protocol.ts";

const LOAD_TIMEOUT_MS = 10_000;
const WORKER_URL = new URL("./worker.ts", import.meta.url);
const WORKER_ENTRY = "core/admission/isolation/worker.ts";

export interface PoolOptions {
  /** The plugin module's path. */
  path: string;
  pluginConfig: unknown;
  /** The server's flags, as the plugin's context has them. */
  config: unknown;
  size: number;
  client: ReadOnlyClient;
  log: PluginLogger;
  /** How long loading the module may take (default 10 s). */
  loadTimeoutMs?: number;
  /** Calls after which a worker is swapped for a fresh one (default: never). */
  recycleAfterCalls?: number;
  /** Told each time a worker is replaced, and why. */
  onReplaced?(reason: ReplacementReason): void;
}

export type ReplacementReason = "timeout" | "crash" | "recycled";

interface PendingCall {
  resolve(outcome: CallOutcome): void;
  reject(error: StatusError): void;
  timer: ReturnType<typeof setTimeout>;
}

class PluginWorker {
  readonly worker = startWorker(WORKER_URL, WORKER_ENTRY);
  readonly pending = new Map<number, PendingCall>();
  /** Calls sent so far (recycling counts them). */
  calls = 0;
  readonly loaded: Promise<PluginInfo>;

  constructor(options: PoolOptions, onDeath: (worker: PluginWorker, reason: string) => void) {
    // The workers never keep the server's process alive on their own (Bun and Node have unref; Deno does not need it).
    (this.worker as { unref?(): void }).unref?.();
    this.loaded = new Promise((resolve, reject) => {
      this.#rejectLoad = reject;
      this.worker.onmessage = (event: MessageEvent<FromWorker>) => {
        const message = event.data;
        if (message.type === "loaded") resolve(message.info);
        else if (message.type === "load-failed") reject(Object.assign(new Error(message.error.message), { name: message.error.name }));
        else if (message.type === "outcome") this.#settle(message.id)?.resolve(message);
        else if (message.type === "log") options.log[message.level](message.message);
        else void this.#answerClient(options.client, message.id, message.method, message.ref);
      };
      const died = (reason: string) => {
        if (this.#ended) return;
        reject(new Error(reason));
        onDeath(this, reason);
      };
      this.worker.onerror = (event: ErrorEvent) => {
        event.preventDefault?.();
        died(`worker failed: ${event.message || "unknown error"}`);
      };
      // Bun ends only the worker when its code calls process.exit().
      this.worker.addEventListener("close", (event) => died(`worker exited with code ${(event as CloseEvent).code}`));
    });
    // A module that never finishes loading (a loop at its top level) must not hold up start-up or a reload.
    const limitMs = options.loadTimeoutMs ?? LOAD_TIMEOUT_MS;
    const loading = setTimeout(() => {
      this.terminate();
      this.#rejectLoad(new Error(`cannot load admission plugin ${options.path}: it did not finish loading within ${limitMs / 1000}s`));
    }, limitMs);
    const loaded = () => clearTimeout(loading);
    this.loaded.then(loaded, loaded);
    this.#send({ type: "load", path: options.path, pluginConfig: options.pluginConfig, config: options.config });
  }

  call(
    id: number,
    phase: "admit" | "validate",
    attributes: WireAttributes,
    timeoutMs: number,
    onTimeout: () => void,
  ): Promise<CallOutcome> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(onTimeout, timeoutMs);
      this.pending.set(id, { resolve, reject, timer });
      this.#send({ type: "call", id, phase, attributes });
    });
  }

  /** Ends the worker on purpose (its end is then no death). */
  terminate(): void {
    this.#ended = true;
    this.worker.terminate();
  }

  #ended = false;
  #rejectLoad: (error: Error) => void = () => {};

  /** Terminates the worker; its unanswered calls fail with `error`. */
  retire(error: StatusError): void {
    this.terminate();
    for (const id of [...this.pending.keys()]) this.#settle(id)?.reject(error);
  }

  /** Terminates the worker once its running calls have answered (or timed out). */
  drain(): void {
    this.#draining = true;
    if (this.pending.size === 0) this.terminate();
  }

  #draining = false;

  #settle(id: number): PendingCall | undefined {
    const call = this.pending.get(id);
    this.pending.delete(id);
    clearTimeout(call?.timer);
    if (this.#draining && this.pending.size === 0) this.terminate();
    return call;
  }

  async #answerClient(client: ReadOnlyClient, id: number, method: "get" | "list", ref: ClientRef) {
    try {
      this.#send({
        type: "client-reply",
        id,
        value: method === "get" ? await client.get({ ...ref, name: ref.name ?? "" }) : await client.list(ref),
      });
    } catch (error) {
      const { name, message } = error as Error;
      this.#send({ type: "client-reply", id, error: { name, message } });
    }
  }

  #send(message: ToWorker): void {
    this.worker.postMessage(message);
  }
}

export class WorkerPool {
  readonly info: PluginInfo;
  readonly #options: PoolOptions;
  #workers: PluginWorker[];
  #nextCall = 0;
  #closed = false;
  /** Replacement workers still loading. */
  readonly #starting = new Set<Promise<void>>();

  private constructor(options: PoolOptions, info: PluginInfo, workers: PluginWorker[]) {
    this.#options = options;
    this.info = info;
    this.#workers = workers;
  }

  /** Starts `size` workers and resolves once each has loaded the plugin; a plugin that fails to load rejects. */
  static async start(options: PoolOptions): Promise<WorkerPool> {
    let pool: WorkerPool | undefined;
    const onDeath = (worker: PluginWorker, reason: string) => {
      if (pool) pool.#replace(worker, "crash", pluginCallFailed(pool.info.name, reason));
    };
    const workers = Array.from({ length: Math.max(1, options.size) }, () => new PluginWorker(options, onDeath));
    try {
      const [info] = await Promise.all(workers.map((worker) => worker.loaded));
      pool = new WorkerPool(options, info, workers);
      return pool;
    } catch (error) {
      for (const worker of workers) worker.terminate();
      throw error;
    }
  }

  async call(phase: "admit" | "validate", attributes: WireAttributes): Promise<CallOutcome> {
    // Between a worker's loss and its replacement's start, calls wait for the replacement.
    if (this.#workers.length === 0 && this.#starting.size > 0) await Promise.race(this.#starting);
    if (this.#closed || this.#workers.length === 0) throw pluginCallFailed(this.info.name, "no worker is running");
    const worker = this.#workers.reduce((least, candidate) => candidate.pending.size < least.pending.size ? candidate : least);
    // A plugin written as a bare factory may name no timeout: it gets defineAdmissionPlugin's default, never none.
    const timeoutMs = this.info.timeoutMs || DEFAULT_PLUGIN_TIMEOUT_MS;
    const id = this.#nextCall++;
    if (++worker.calls === this.#options.recycleAfterCalls) this.#recycle(worker);
    return await worker.call(
      id,
      phase,
      attributes,
      timeoutMs,
      () => this.#replace(worker, "timeout", pluginTimeout(this.info.name, timeoutMs)),
    );
  }

  /** Stops every worker (after a reload swapped in a new pool, or at shutdown); calls still running keep their answers. */
  close(): void {
    this.#closed = true;
    for (const worker of this.#workers) worker.drain();
    this.#workers = [];
  }

  #replace(worker: PluginWorker, reason: "timeout" | "crash", error: StatusError): void {
    worker.retire(error);
    this.#options.log.warn(`worker terminated: ${error.message}`);
    this.#options.onReplaced?.(reason);
    if (this.#closed || !this.#workers.includes(worker)) return;
    this.#workers = this.#workers.filter((other) => other !== worker);
    this.#startWorker(() => {});
  }

  /**
   * A worker that has served its share of calls is swapped for a fresh one, which bounds what a plugin leaking
   * memory across calls can hold (Bun's workers take no heap limit); the old one finishes its calls first.
   */
  #recycle(worker: PluginWorker): void {
    this.#startWorker((fresh) => {
      // Already replaced after a timeout or crash: that replacement stands for this one.
      const replaced = !this.#workers.includes(worker);
      this.#workers = this.#workers.filter((other) => other !== (replaced ? fresh : worker));
      (replaced ? fresh : worker).drain();
      if (!replaced) this.#options.onReplaced?.("recycled");
    });
  }

  #startWorker(onLoaded: (fresh: PluginWorker) => void): void {
    if (this.#closed) return;
    const fresh = new PluginWorker(this.#options, (dead, why) => this.#replace(dead, "crash", pluginCallFailed(this.info.name, why)));
    const started = fresh.loaded.then(
      () => {
        if (this.#closed) return fresh.terminate();
        this.#workers.push(fresh);
        onLoaded(fresh);
      },
      (failure: Error) => this.#options.log.error(`replacement worker failed to load the plugin: ${failure.message}`),
    ).finally(() => this.#starting.delete(started));
    this.#starting.add(started);
  }
}
