/** kube's protobuf wire format for built-in kinds: request bodies, responses and watch streams. */
export { type DecodedObject, decodeProtobufObject, encodeProtobufObject, hasProtobufEncoding, PROTOBUF_MAGIC } from "./codec.ts";
export { protobufListParts } from "./list-parts.ts";
export { isProtobufCodecError, ProtobufCodecError } from "./codec-errors.ts";
export { PROTOBUF_MEDIA_TYPE, PROTOBUF_WATCH_MEDIA_TYPE } from "./media-types.ts";
export { decodeWatchEventFrames, encodeWatchEventFrame, type WatchEventFrame } from "./watch-frames.ts";
export { messageFromJson } from "./json-convert.ts";
export type { MessageJsonFacts, ProtoField, ProtoNamespace } from "./descriptor-types.ts";
export { specialTypeOf } from "./_special-types.ts";
export { type FieldPlan, messageNameOfKind, type MessagePlan, planOf } from "./message-plans.ts";
