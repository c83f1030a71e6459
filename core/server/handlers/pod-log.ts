/**
 * GET pods/<name>/log (kube's LogREST.Get with pod.LogLocation): PodLogOptions validated first (422), then the
 * pod (404), the container (400, validateContainer), and 204 No Content while the pod has no node. A simulated
 * node's kubelet answers itself (text/plain; `follow` keeps the answer open while the container runs); any other
 * node's kubelet cannot be reached, which kube answers with its failed GET.
 */
import { newBadRequest, newMethodNotSupported } from "../../api/errors.ts";
import type { ReadOnlyClient } from "../../api/client.ts";
import { containerRunning, logUnavailableReason, simulatedLog } from "../../controllers/mod.ts";
import type { StorageEvent } from "../../storage/storage.ts";
import type { Watch } from "../../watch/mod.ts";
import { newResourceNotFound } from "../resource-route.ts";
import { virtualHandlerKey } from "../virtual-handlers.ts";
import type { Handler, HandlerContext } from "./context.ts";
import { newLogFetchError, nodeConnectionInfo } from "./node-agent.ts";
import { nodeNameOf, validateContainer } from "./pod-containers.ts";
import { parsePodLogOptions, type PodLogOptions } from "./pod-log-options.ts";
import { decodeStored } from "../../registry/codec.ts";

const TEXT = { "Content-Type": "text/plain" };

function sinceMs(options: PodLogOptions): number | undefined {
  return options.sinceSeconds !== undefined ? Date.now() - options.sinceSeconds * 1000 : options.sinceTime;
}

/** The log so far, then open until the container stops running, the pod goes, or the watch ends (shutdown). */
function followed(initial: string, watch: Watch, stillRunning: (event: StorageEvent) => boolean): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    async start(controller) {
      controller.enqueue(encoder.encode(initial));
      try {
        for await (const message of watch) {
          if (message.kind === "event" && !stillRunning(message.event)) break;
        }
      } catch {
        // A failed watch ends the log like a finished one.
      } finally {
        watch.close();
        controller.close();
      }
    },
    cancel() {
      watch.close();
    },
  });
}

function podLogHandler(client: ReadOnlyClient): Handler {
  return async (ctx: HandlerContext) => {
    if (ctx.info.namespace === "") throw newResourceNotFound();
    if (ctx.info.verb !== "get") throw newMethodNotSupported({ group: "", resource: "pods/log" }, ctx.info.verb);
    const { namespace, name } = ctx.info;
    const options = parsePodLogOptions(ctx.url.searchParams, name);
    const revision = ctx.storage.currentRevision();
    const pod = await ctx.store.get(namespace, name);
    const container = validateContainer(options.container, pod);
    const nodeName = nodeNameOf(pod);
    if (nodeName === "") return new Response(null, { status: 204 });
    const node = await nodeConnectionInfo(client, nodeName);
    if (!node.simulated) throw newLogFetchError(node, `/containerLogs/${namespace}/${name}/${container}`);
    // The kubelet's refusals come back through kube's GenericHttpResponseChecker as 400s.
    const unavailable = logUnavailableReason(pod, container, options.previous);
    if (unavailable) throw newBadRequest(unavailable);
    const text = simulatedLog(pod, container, { ...options, sinceMs: sinceMs(options) });
    const limited = options.limitBytes !== undefined && new TextEncoder().encode(text).length >= options.limitBytes;
    if (!options.follow || limited || !containerRunning(pod, container)) return new Response(text, { headers: TEXT });
    const key = ctx.store.key(namespace, name);
    const watch = ctx.broker.watch(key, revision);
    // Pods are stored as served (no version conversion), so the stored form is read directly.
    const stillRunning = (event: StorageEvent) => event.type !== "DELETED" && containerRunning(decodeStored(event.kv), container);
    return new Response(followed(text, exactKey(watch, key), stillRunning), { headers: TEXT });
  };
}

/** The broker matches by prefix; a pod's key is also the prefix of longer names' keys. */
function exactKey(watch: Watch, key: string): Watch {
  return {
    close: () => watch.close(),
    async *[Symbol.asyncIterator]() {
      for await (const message of watch) if (message.kind !== "event" || message.event.kv.key === key) yield message;
    },
  };
}

export function podLogHandlers(client: ReadOnlyClient): [string, Handler][] {
  return [[virtualHandlerKey("", "pods", "log"), podLogHandler(client)]];
}
