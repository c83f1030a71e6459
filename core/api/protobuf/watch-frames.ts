/**
 * kube's protobuf watch stream: each event is a 4-byte big-endian length followed by a bare metav1.WatchEvent
 * (no magic, no Unknown: the stream serializer is the raw one) whose object.raw holds the object's full
 * encoding, magic and Unknown included (apiserver endpoints/handlers/watch.go, LengthDelimitedFramer).
 */
import { planOf } from "./message-plans.ts";
import { newMalformedProtobuf } from "./codec-errors.ts";

const WATCH_EVENT = "k8s.io.apimachinery.pkg.apis.meta.v1.WatchEvent";

/** One frame of the stream; `encodedObject` is what encodeProtobufObject returned for the event's object. */
export function encodeWatchEventFrame(type: string, encodedObject: Uint8Array): Uint8Array {
  const event = planOf(WATCH_EVENT).type.encode({ type, object: { raw: encodedObject } }).finish();
  const frame = new Uint8Array(4 + event.length);
  new DataView(frame.buffer).setUint32(0, event.length);
  frame.set(event, 4);
  return frame;
}

export interface WatchEventFrame {
  type: string;
  /** The object's full protobuf encoding, for decodeProtobufObject. */
  object: Uint8Array;
}

/** The complete frames at the start of a stream chunk, and how many bytes they took. */
export function decodeWatchEventFrames(stream: Uint8Array): { events: WatchEventFrame[]; consumed: number } {
  const view = new DataView(stream.buffer, stream.byteOffset, stream.byteLength);
  const events: WatchEventFrame[] = [];
  let offset = 0;
  while (offset + 4 <= stream.length) {
    const length = view.getUint32(offset);
    if (offset + 4 + length > stream.length) break;
    const message = planOf(WATCH_EVENT).type.decode(stream.subarray(offset + 4, offset + 4 + length)) as unknown as {
      type?: string;
      object?: { raw?: Uint8Array };
    };
    if (message.object?.raw === undefined) throw newMalformedProtobuf("watch event without an object");
    events.push({ type: message.type ?? "", object: message.object.raw });
    offset += 4 + length;
  }
  return { events, consumed: offset };
}
