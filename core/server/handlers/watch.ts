/**
 * Watch (spec 4.5 watch table, 6): a chunked stream of JSON events. Without a resourceVersion (or "0") the
 * current state comes first as ADDED events; with one, only changes after it. A version older than the kept
 * history ends the stream with an ERROR event carrying 410 Expired. Bookmarks are sent when asked for:
 * every minute and shortly before the timeout, as kube's watch cache does.
 */
import { newResourceExpired, type StatusError } from "../../api/errors.ts";
import { parseListOptions, parseResourceVersion } from "../../api/list-options.ts";
import { encodeProtobufObject, encodeWatchEventFrame, PROTOBUF_WATCH_MEDIA_TYPE } from "../../api/protobuf/mod.ts";
import { apiVersionOf, type KubeObject } from "../../api/types.ts";
import { waitForRevision } from "../../registry/freshness.ts";
import { collectionPrefix } from "../../registry/keys.ts";
import { listObjects } from "../../registry/list.ts";
import { toWatchEvent } from "../../registry/watch.ts";
import { isStorageError, type KeyValue } from "../../storage/storage.ts";
import type { Watch, WatchMessage } from "../../watch/mod.ts";
import { objectBody } from "../respond.ts";
import type { HandlerContext } from "./context.ts";
import { selectionOf } from "./selection.ts";

const BOOKMARK_INTERVAL_MS = 60_000;
const BOOKMARK_BEFORE_DEADLINE_MS = 2_000;

type EventFrame = { type: string; object: unknown };
/** A frame to encode for this watcher, or one already encoded for every watcher of the same form. */
type Frame = EventFrame | { encoded: Uint8Array };

/**
 * kube's watch cache serializes an event once per encoder for all its watchers (cachingObject): here each
 * committed event's frame is encoded once per type, version, form and event type, and shared by every watcher
 * asking for the same. Tables are not shared (their age column is computed per watcher).
 */
const sharedFrames = new WeakMap<object, Map<string, Uint8Array>>();
const sharedObjects = new WeakMap<KeyValue, Map<string, Promise<KubeObject>>>();

export async function handleWatch(ctx: HandlerContext): Promise<Response> {
  const options = parseListOptions(ctx.url.searchParams);
  const selected = selectionOf(ctx.store.definition, options.labelSelector, options.fieldSelector);
  // The legacy /watch/.../<name> path watches one object.
  const name = ctx.info.name;
  const matches = name === "" ? selected : (obj: KubeObject) => obj.metadata.name === name && (selected?.(obj) ?? true);
  const initial: KubeObject[] = [];
  let after: number;
  if (options.resourceVersion === undefined || options.resourceVersion === "" || options.resourceVersion === "0") {
    const page = await listObjects(ctx.store, { namespace: ctx.info.namespace, revision: 0, limit: 0, matches });
    initial.push(...page.list.items);
    after = Number(page.list.metadata.resourceVersion);
  } else {
    after = parseResourceVersion(options.resourceVersion);
    await waitForRevision(ctx.storage, after);
  }
  const timeoutSeconds = watchTimeoutSeconds(options.timeoutSeconds, ctx.services.minRequestTimeoutSeconds);
  const watch = ctx.broker.watch(collectionPrefix(ctx.type, ctx.info.namespace), after);
  const encode = frameEncoder(ctx);
  const frames = eventFrames(ctx, watch, initial, matches, options.allowWatchBookmarks, encode);
  const stream = frameStream(frames, watch, {
    timeoutMs: timeoutSeconds * 1000,
    bookmarks: options.allowWatchBookmarks,
    requestProgress: () => ctx.broker.requestProgress(watch),
    encode,
  });
  return new Response(stream, { status: 200, headers: { "Content-Type": streamContentType(ctx), "Cache-Control": "no-cache, private" } });
}

/**
 * kube's ListResource: timeoutSeconds when given and not 0, else a random time between --min-request-timeout
 * and twice it, so watches opened together do not all end together; no timeout when both are 0.
 */
export function watchTimeoutSeconds(requested: number | undefined, minRequestTimeoutSeconds: number): number {
  if (requested) return requested;
  return minRequestTimeoutSeconds > 0 ? minRequestTimeoutSeconds * (1 + Math.random()) : Infinity;
}

function streamContentType(ctx: HandlerContext): string {
  const format = ctx.encode.representation.format;
  if (format === "protobuf") return PROTOBUF_WATCH_MEDIA_TYPE;
  return format === "table" ? "application/json;as=Table;g=meta.k8s.io;v=v1" : "application/json";
}

/** JSON streams are one document per line; protobuf streams length-prefixed WatchEvent frames. */
function frameEncoder(ctx: HandlerContext): (frame: EventFrame) => Uint8Array {
  if (ctx.encode.representation.format === "protobuf") {
    return (frame) => {
      const object = frame.object as Record<string, unknown> & { apiVersion: string; kind: string };
      return encodeWatchEventFrame(frame.type, encodeProtobufObject(object, object.apiVersion, object.kind));
    };
  }
  const text = new TextEncoder();
  return (frame) => text.encode(`${JSON.stringify(frame)}\n`);
}

async function* eventFrames(
  ctx: HandlerContext,
  watch: Watch,
  initial: KubeObject[],
  matches: ((obj: KubeObject) => boolean) | undefined,
  bookmarks: boolean,
  encode: (frame: EventFrame) => Uint8Array,
): AsyncGenerator<Frame> {
  for (const object of initial) yield { type: "ADDED", object: objectBody(object, ctx.encode) };
  let lastBookmark = 0;
  try {
    for await (const message of watch) {
      const frame = await frameOf(ctx, message, matches, encode);
      if (frame) yield frame;
      else if (message.kind === "progress" && bookmarks && message.revision > lastBookmark) {
        lastBookmark = message.revision;
        yield { type: "BOOKMARK", object: bookmarkObject(ctx, message.revision) };
      }
    }
  } catch (e) {
    if (!isStorageError(e, "Compacted")) throw e;
    const expired: StatusError = newResourceExpired(
      `too old resource version: ${ctx.url.searchParams.get("resourceVersion")} (${ctx.storage.compactedRevision() + 1})`,
    );
    yield { type: "ERROR", object: expired.toStatus() };
  }
}

/** Events are converted one at a time, in order (custom resources may call a conversion webhook). */
async function frameOf(
  ctx: HandlerContext,
  message: WatchMessage,
  matches: ((obj: KubeObject) => boolean) | undefined,
  encode: (frame: EventFrame) => Uint8Array,
): Promise<Frame | null> {
  if (message.kind !== "event") return null;
  const { kv, prev } = message.event;
  const object = await decodeShared(ctx, kv);
  const before = prev && matches ? await decodeShared(ctx, prev) : undefined;
  const event = toWatchEvent(message.event, matches, (stored) => stored === kv ? object : before!);
  if (!event) return null;
  const form = sharedForm(ctx, event.type, event.object === object);
  if (form === undefined) return { type: event.type, object: objectBody(event.object, ctx.encode) };
  let frames = sharedFrames.get(message.event);
  if (!frames) sharedFrames.set(message.event, frames = new Map());
  let encoded = frames.get(form);
  if (!encoded) frames.set(form, encoded = encode({ type: event.type, object: objectBody(event.object, ctx.encode) }));
  return { encoded };
}

/** A stored value decoded (and converted) once per served type and version for all watchers; read only. */
function decodeShared(ctx: HandlerContext, kv: KeyValue): Promise<KubeObject> {
  let decoded = sharedObjects.get(kv);
  if (!decoded) sharedObjects.set(kv, decoded = new Map());
  const typeKey = `${ctx.type.group}/${ctx.type.version}/${ctx.type.resource}`;
  let object = decoded.get(typeKey);
  if (!object) decoded.set(typeKey, object = ctx.store.decode(kv));
  return object;
}

/** What a shared frame depends on; undefined for Tables, encoded per watcher. */
function sharedForm(ctx: HandlerContext, eventType: string, ofNewObject: boolean): string | undefined {
  const rep = ctx.encode.representation;
  if (rep.format === "table") return undefined;
  const version = rep.format === "partial-metadata" ? rep.version : "";
  return `${ctx.type.group}/${ctx.type.version}/${ctx.type.resource} ${rep.format}${version} ${eventType} ${ofNewObject}`;
}

function bookmarkObject(ctx: HandlerContext, revision: number): KubeObject {
  return {
    kind: ctx.type.kind,
    apiVersion: apiVersionOf(ctx.type.group, ctx.type.version),
    metadata: { resourceVersion: String(revision) },
  };
}

/** Streams the encoded frames; ends at the timeout or when the client goes away. */
function frameStream(
  frames: AsyncGenerator<Frame>,
  watch: Watch,
  options: { timeoutMs: number; bookmarks: boolean; requestProgress: () => void; encode: (frame: EventFrame) => Uint8Array },
): ReadableStream<Uint8Array> {
  const timers: ReturnType<typeof setTimeout>[] = [];
  const deadline = Number.isFinite(options.timeoutMs);
  if (deadline) timers.push(setTimeout(() => watch.close(), options.timeoutMs));
  if (options.bookmarks) {
    const beforeDeadline = options.timeoutMs - BOOKMARK_BEFORE_DEADLINE_MS;
    if (deadline && beforeDeadline > 0) timers.push(setTimeout(options.requestProgress, beforeDeadline));
    timers.push(setInterval(options.requestProgress, BOOKMARK_INTERVAL_MS));
  }
  const stop = () => {
    for (const t of timers) clearTimeout(t);
    watch.close();
  };
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const next = await frames.next();
        if (next.done) {
          stop();
          controller.close();
          return;
        }
        controller.enqueue("encoded" in next.value ? next.value.encoded : options.encode(next.value));
      } catch {
        // An overflowing or failed watch just ends; the client re-watches from its last resourceVersion.
        stop();
        controller.close();
      }
    },
    cancel() {
      stop();
      void frames.return(undefined);
    },
  });
}
