/**
 * The bytes of one watch's event frames, shared between watches. kube's watch cache serializes an event once per
 * encoder for all its watchers (cachingObject, staging/src/k8s.io/apiserver/pkg/storage/cacher/caching_object.go):
 * here a committed event's stored value is decoded once per served type and version, and its frame encoded once
 * per form (type, version, representation and event type). A Table's cells depend on the time they are rendered
 * at (ages), so Table frames are shared by the watches that render the event within the same millisecond.
 */
import { encodeProtobufObject, encodeWatchEventFrame } from "../../api/protobuf/mod.ts";
import type { KubeObject } from "../../api/types.ts";
import { toWatchEvent } from "../../registry/watch.ts";
import type { KeyValue, StorageEvent } from "../../storage/storage.ts";
import { type EncodeOptions, objectBody } from "../respond.ts";
import type { HandlerContext } from "./context.ts";

export type EventFrame = { type: string; object: unknown };

/** A committed event's frame for one watch: its bytes, null when the watch's selection skips it. */
export type EventFramer = (event: StorageEvent) => Uint8Array | null | Promise<Uint8Array | null>;

const framesByEvent = new WeakMap<StorageEvent, Map<string, Uint8Array>>();
/** Decoded values per served type: the pending decode first, then the object itself (read only). */
const objectsByValue = new WeakMap<KeyValue, Map<string, KubeObject | Promise<KubeObject>>>();

/** JSON streams are one document per line; protobuf streams length-prefixed WatchEvent frames. */
export function frameEncoder(ctx: HandlerContext): (frame: EventFrame) => Uint8Array {
  if (ctx.encode.representation.format === "protobuf") {
    return (frame) => {
      const object = frame.object as Record<string, unknown> & { apiVersion: string; kind: string };
      return encodeWatchEventFrame(frame.type, encodeProtobufObject(object, object.apiVersion, object.kind));
    };
  }
  const text = new TextEncoder();
  return (frame) => text.encode(`${JSON.stringify(frame)}\n`);
}

/**
 * The encode options of one watch's event objects. As kube's serveWatch Fixup sets TableOptions.NoHeaders after
 * the first object, a Table's column definitions go with the watch's first event only; `sent` says one went.
 */
export function watchObjectOptions(ctx: HandlerContext): { options: EncodeOptions; sent(): void } {
  const options = { ...ctx.encode };
  return { options, sent: () => void (options.noHeaders = true) };
}

/**
 * Frames the events of one watch; synchronous once the event's value has been decoded for another watch, as it
 * has for all but the first watch of a type to see it.
 */
export function eventFramer(
  ctx: HandlerContext,
  matches: ((obj: KubeObject) => boolean) | undefined,
  encode: (frame: EventFrame) => Uint8Array,
  objectOptions: EncodeOptions,
): EventFramer {
  const typeKey = `${ctx.type.group}/${ctx.type.version}/${ctx.type.resource}`;
  const rep = objectOptions.representation;
  const table = rep.format === "table";
  const form = `${typeKey} ${rep.format}${"version" in rep ? rep.version : ""}${table ? ` ${objectOptions.includeObject}` : ""}`;

  const frameOf = (event: StorageEvent, object: KubeObject, before: KubeObject | undefined): Uint8Array | null => {
    const watchEvent = toWatchEvent(event, matches, (stored) => stored === event.kv ? object : before!);
    if (!watchEvent) return null;
    const now = table ? Date.now() : 0;
    const key = `${form} ${watchEvent.type}${table ? ` ${now} ${objectOptions.noHeaders === true}` : ""}`;
    let frames = framesByEvent.get(event);
    if (!frames) framesByEvent.set(event, frames = new Map());
    let bytes = frames.get(key);
    if (!bytes) {
      bytes = encode({ type: watchEvent.type, object: objectBody(watchEvent.object, objectOptions, table ? new Date(now) : undefined) });
      frames.set(key, bytes);
    }
    return bytes;
  };

  return (event) => {
    const object = decoded(ctx, typeKey, event.kv);
    // The previous state matters only to a selection (an object leaving it is DELETED).
    const before = event.prev && matches ? decoded(ctx, typeKey, event.prev) : undefined;
    if (object instanceof Promise || before instanceof Promise) {
      return Promise.all([object, before]).then(([now, then]) => frameOf(event, now, then));
    }
    return frameOf(event, object, before);
  };
}

function decoded(ctx: HandlerContext, typeKey: string, kv: KeyValue): KubeObject | Promise<KubeObject> {
  let byType = objectsByValue.get(kv);
  if (!byType) objectsByValue.set(kv, byType = new Map());
  let object = byType.get(typeKey);
  if (!object) {
    const decoding = ctx.store.decode(kv);
    byType.set(typeKey, decoding);
    // A failed decode stays as it is: every watch of the event sees the same failure.
    decoding.then((value) => byType.set(typeKey, value), () => undefined);
    object = decoding;
  }
  return object;
}
