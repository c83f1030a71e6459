/**
 * Watch (spec 4.5 watch table, 6): a chunked stream of JSON events. Without a resourceVersion (or "0") the
 * current state comes first as ADDED events; with one, only changes after it. A version older than the kept
 * history ends the stream with an ERROR event carrying 410 Expired. Bookmarks are sent when asked for:
 * every minute and shortly before the timeout, as kube's watch cache does.
 */
import { newBadRequest, newResourceExpired, type StatusError } from "../../api/errors.ts";
import { isEverythingFields, requiredFieldValue } from "../../api/field-selector.ts";
import { assertStreamable } from "../../api/negotiate.ts";
import { parseListOptions, parseResourceVersion } from "../../api/list-options.ts";
import { PROTOBUF_WATCH_MEDIA_TYPE } from "../../api/protobuf/mod.ts";
import { apiVersionOf, type KubeObject } from "../../api/types.ts";
import { collectionPrefix } from "../../registry/keys.ts";
import { listObjects } from "../../registry/list.ts";
import { type PushSink, pushStream } from "../../runtime/push-stream.ts";
import { isStorageError, type Storage } from "../../storage/storage.ts";
import type { Watch } from "../../watch/mod.ts";
import { objectBody } from "../respond.ts";
import type { HandlerContext } from "./context.ts";
import { selectionOf } from "./selection.ts";
import { type EventFrame, type EventFramer, eventFramer, frameEncoder, watchObjectOptions } from "./watch-frames.ts";

const BOOKMARK_INTERVAL_MS = 60_000;
const BOOKMARK_BEFORE_DEADLINE_MS = 2_000;

export async function handleWatch(ctx: HandlerContext): Promise<Response> {
  const options = parseListOptions(ctx.url.searchParams);
  const selected = selectionOf(ctx.store.definition, options.labelSelector, options.fieldSelector);
  // The legacy /watch/.../<name> path watches one object; a field selector beside it must name that object.
  const name = ctx.info.name;
  if (name !== "" && !isEverythingFields(options.fieldSelector) && requiredFieldValue(options.fieldSelector, "metadata.name") !== name) {
    throw newBadRequest("fieldSelector metadata.name doesn't match requested name"); // ListResource
  }
  assertStreamable(ctx.encode.representation);
  const matches = name === "" ? selected : (obj: KubeObject) => obj.metadata.name === name && (selected?.(obj) ?? true);
  const initial: KubeObject[] = [];
  let after: number;
  if (options.resourceVersion === undefined || options.resourceVersion === "" || options.resourceVersion === "0") {
    const page = await listObjects(ctx.store, { namespace: ctx.info.namespace, revision: 0, limit: 0, matches });
    initial.push(...page.list.items);
    after = Number(page.list.metadata.resourceVersion);
  } else {
    // A version the store has not reached is not waited for nor refused: kube 1.26's Cacher.Watch starts the watch
    // at once and watchCache.getAllEventsSinceLocked has no upper bound, so the events past it arrive as committed.
    after = parseResourceVersion(options.resourceVersion);
  }
  const timeoutSeconds = watchTimeoutSeconds(options.timeoutSeconds, ctx.services.minRequestTimeoutSeconds);
  const watch = ctx.broker.watch(collectionPrefix(ctx.type, ctx.info.namespace), after);
  const encode = frameEncoder(ctx);
  const objects = watchObjectOptions(ctx);
  const body = watchBody(ctx, watch, {
    initial,
    objects,
    framer: eventFramer(ctx, matches, encode, objects.options),
    encode,
    timeoutMs: timeoutSeconds * 1000,
    // Bookmarks come from the watch cache; kube's etcd3 watcher, which serves kinds without one, sends none.
    bookmarks: options.allowWatchBookmarks && !ctx.store.definition.noWatchCache,
  });
  return new Response(body, { status: 200, headers: { "Content-Type": streamContentType(ctx) } });
}

/**
 * kube's ListResource: timeoutSeconds when given and not 0, else a random time between --min-request-timeout
 * and twice it, so watches opened together do not all end together; no timeout when both are 0.
 */
export function watchTimeoutSeconds(requested: number | undefined, minRequestTimeoutSeconds: number): number {
  if (requested) return requested;
  return minRequestTimeoutSeconds > 0 ? minRequestTimeoutSeconds * (1 + Math.random()) : Infinity;
}

/** serveWatch's media type: the stream serializer's, so a Table watch is application/json too. */
function streamContentType(ctx: HandlerContext): string {
  return ctx.encode.representation.format === "protobuf" ? PROTOBUF_WATCH_MEDIA_TYPE : "application/json";
}

function bookmarkObject(ctx: HandlerContext, revision: number): KubeObject {
  return {
    kind: ctx.type.kind,
    apiVersion: apiVersionOf(ctx.type.group, ctx.type.version),
    metadata: { resourceVersion: String(revision) },
  };
}

interface WatchBodyOptions {
  /** Objects sent as ADDED first (a watch without a resourceVersion starts with the current state). */
  initial: KubeObject[];
  /** How event objects are encoded; told once an event went (a Table's headers go with the first only). */
  objects: ReturnType<typeof watchObjectOptions>;
  framer: EventFramer;
  encode: (frame: EventFrame) => Uint8Array;
  timeoutMs: number;
  bookmarks: boolean;
}

/**
 * The watch's frames as a push body (the listener writes it straight to the socket): one loop per watch, awaiting
 * only the next message, a first decode and a full socket. Ends at the timeout or when the client goes away; a
 * client slower than the events leaves them in its watch's queue, which ends the watch once over its limit.
 */
function watchBody(ctx: HandlerContext, watch: Watch, options: WatchBodyOptions): ReadableStream<Uint8Array> {
  const timers: ReturnType<typeof setTimeout>[] = [];
  const deadline = Number.isFinite(options.timeoutMs);
  if (deadline) timers.push(setTimeout(() => watch.close(), options.timeoutMs));
  if (options.bookmarks) {
    const requestProgress = () => ctx.broker.requestProgress(watch);
    const beforeDeadline = options.timeoutMs - BOOKMARK_BEFORE_DEADLINE_MS;
    if (deadline && beforeDeadline > 0) timers.push(setTimeout(requestProgress, beforeDeadline));
    timers.push(setInterval(requestProgress, BOOKMARK_INTERVAL_MS));
  }
  let cancelled = false;
  let resume: (() => void) | undefined;
  const stop = () => {
    for (const t of timers) clearTimeout(t);
    watch.close();
  };
  /** Writes a frame; resolves false when the client went away while its buffer was full. */
  const send = (sink: PushSink, bytes: Uint8Array): true | Promise<boolean> => {
    if (sink.write(bytes)) return true;
    return new Promise<boolean>((resolve) => {
      resume = () => resolve(!cancelled);
      sink.onDrain(resume);
    });
  };
  const pump = async (sink: PushSink) => {
    const messages = watch[Symbol.asyncIterator]();
    let lastBookmark = 0;
    try {
      for (const object of options.initial) {
        const sent = send(sink, options.encode({ type: "ADDED", object: objectBody(object, options.objects.options) }));
        options.objects.sent();
        if (sent !== true && !(await sent)) return;
      }
      for (let next = await messages.next(); !next.done; next = await messages.next()) {
        const message = next.value;
        let bytes: Uint8Array | null = null;
        if (message.kind === "event") {
          const framed = options.framer(message.event);
          bytes = framed instanceof Promise ? await framed : framed;
          if (bytes) options.objects.sent();
        } else if (options.bookmarks && message.revision > lastBookmark) {
          lastBookmark = message.revision;
          bytes = options.encode({ type: "BOOKMARK", object: bookmarkObject(ctx, message.revision) });
        }
        const sent = bytes && send(sink, bytes);
        if (sent && sent !== true && !(await sent)) return;
      }
    } catch (e) {
      // An overflowing or failed watch just ends; the client re-watches from its last resourceVersion.
      if (!cancelled && isStorageError(e, "Compacted")) {
        const requested = ctx.url.searchParams.get("resourceVersion");
        const expired = ctx.store.definition.noWatchCache ? newWatchTooOld() : expiredStatus(requested, ctx.storage);
        sink.write(options.encode({ type: "ERROR", object: expired }));
      }
    }
  };
  return pushStream({
    start: (sink) =>
      void pump(sink).finally(() => {
        stop();
        if (!cancelled) sink.end();
      }),
    cancel: () => {
      cancelled = true;
      stop();
      resume?.();
    },
  });
}

/** The etcd3 watcher's 410 (interpretWatchError), for kinds watched without a watch cache. */
function newWatchTooOld(): unknown {
  return newResourceExpired("The resourceVersion for the provided watch is too old.").toStatus();
}

/** watchCache.getAllEventsSinceLocked's 410: the number in parentheses is the oldest resourceVersion still accepted. */
export function expiredStatus(requested: string | null, storage: Pick<Storage, "compactedRevision">): unknown {
  const expired: StatusError = newResourceExpired(
    `too old resource version: ${requested} (${storage.compactedRevision()})`,
  );
  return expired.toStatus();
}
