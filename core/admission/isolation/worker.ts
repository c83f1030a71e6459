/**
 * The entry point of an admission plugin's worker: loads the plugin module once, then runs the calls the
 * server sends. The plugin sees the same context and attributes as in-process (its read-only client asks the
 * server through messages); whatever it throws becomes the Status the server answers with (toAdmissionError).
 */
import type { KubeObject } from "../../api/types.ts";
import type { ReadOnlyClient } from "../../api/client.ts";
import type { PluginLogger } from "../../auth/plugin-context.ts";
import type { ServerConfig } from "../../config/mod.ts";
import { importPluginModule } from "../../runtime/plugin-module.ts";
import { useNormalJITPolicy } from "../../runtime/jit-policy.ts";
import { dryRunUnsupported, toAdmissionError } from "../errors.ts";
import type { AdmissionAttributes, AdmissionPlugin, AdmissionPluginFactory } from "../types.ts";
import type { CallOutcome, ClientRef, FromWorker, PluginInfo, ToWorker, WireAttributes } from "./protocol.ts";

/** The worker's global scope (a DedicatedWorkerGlobalScope in Bun and Deno alike; neither's types say so here). */
const scope = globalThis as unknown as {
  postMessage(message: FromWorker): void;
  onmessage: ((event: MessageEvent<ToWorker>) => void) | null;
};
const send = (message: FromWorker) => scope.postMessage(message);
// A plugin's code runs on every admitted request: compiled by the JIT as usual, whatever policy the binary started with.
useNormalJITPolicy();
let plugin: AdmissionPlugin | undefined;
let nextClientCall = 0;
const clientCalls = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();

function ask(method: "get" | "list", ref: ClientRef): Promise<unknown> {
  const id = nextClientCall++;
  return new Promise((resolve, reject) => {
    clientCalls.set(id, { resolve, reject });
    send({ type: "client", id, method, ref });
  });
}

const client: ReadOnlyClient = {
  get: (ref) => ask("get", ref) as Promise<KubeObject | null>,
  list: (ref) => ask("list", ref) as Promise<KubeObject[]>,
  watch: () => Promise.reject(new Error("watch is not available to admission plugins running in workers")),
};

const log: PluginLogger = {
  info: (message) => send({ type: "log", level: "info", message }),
  warn: (message) => send({ type: "log", level: "warn", message }),
  error: (message) => send({ type: "log", level: "error", message }),
};

async function load(path: string, pluginConfig: unknown, config: unknown): Promise<void> {
  try {
    const factory = await importPluginModule<AdmissionPluginFactory>(path, "admission");
    plugin = await factory({ config: config as ServerConfig, client, log, pluginConfig });
    send({ type: "loaded", info: infoOf(plugin) });
  } catch (error) {
    const { name, message } = error instanceof Error ? error : new Error(String(error));
    send({ type: "load-failed", error: { name, message } });
  }
}

function infoOf(loaded: AdmissionPlugin): PluginInfo {
  return {
    name: loaded.name,
    admit: typeof loaded.admit === "function",
    validate: typeof loaded.validate === "function",
    sideEffects: loaded.sideEffects ?? false,
    timeoutMs: loaded.timeoutMs,
    handles: loaded.rules,
  };
}

async function call(id: number, phase: "admit" | "validate", wire: WireAttributes): Promise<void> {
  const { isReinvoke, reinvocationValue, ...data } = wire;
  const outcome: CallOutcome = { id, handled: true, warnings: [], auditAnnotations: [], reinvoke: false, reinvocationValue };
  const values = new Map<string, unknown>([[plugin!.name, reinvocationValue]]);
  const attributes: AdmissionAttributes = {
    ...data,
    reinvocation: { isReinvoke, values, requestReinvocation: () => (outcome.reinvoke = true) },
    addWarning: (text) => outcome.warnings.push(text),
    addAuditAnnotation: (key, value) => outcome.auditAnnotations.push([key, value]),
  };
  try {
    if (plugin!.handles && !plugin!.handles(attributes)) {
      outcome.handled = false;
    } else if (plugin!.sideEffects && attributes.dryRun) {
      throw dryRunUnsupported(plugin!.name);
    } else {
      await plugin![phase]!(attributes);
      if (phase === "admit") outcome.object = attributes.object;
    }
  } catch (thrown) {
    const refusal = toAdmissionError(thrown, attributes, plugin!.name);
    outcome.refusal = { code: refusal.code, reason: refusal.reason, message: refusal.message, details: refusal.details };
  }
  outcome.reinvocationValue = values.get(plugin!.name);
  send({ type: "outcome", ...outcome });
}

scope.onmessage = (event) => {
  const message = event.data;
  if (message.type === "load") void load(message.path, message.pluginConfig, message.config);
  else if (message.type === "call") void call(message.id, message.phase, message.attributes);
  else {
    const pending = clientCalls.get(message.id);
    clientCalls.delete(message.id);
    if (message.error) pending?.reject(Object.assign(new Error(message.error.message), { name: message.error.name }));
    else pending?.resolve(message.value);
  }
};
