/**
 * The parts of etcd v3's gRPC API (etcdserverpb rpc.proto and mvccpb kv.proto, 3.4) the backend speaks, as
 * protobufjs/light types built in code: a compiled binary has no .proto files beside it to load.
 */
import protobuf from "protobufjs/light.js";

const { Field, OneOf, Root, Type } = protobuf;

type FieldSpec = [name: string, id: number, type: string, rule?: "repeated"];

const root = new Root();
const pb = root.define("etcdserverpb");

function message(name: string, fields: FieldSpec[], oneofs: Record<string, string[]> = {}): protobuf.Type {
  const type = new Type(name);
  for (const [field, id, kind, rule] of fields) type.add(new Field(field, id, kind, rule));
  for (const [oneof, members] of Object.entries(oneofs)) type.add(new OneOf(oneof, members));
  pb.add(type);
  return type;
}

message("ResponseHeader", [["clusterId", 1, "uint64"], ["memberId", 2, "uint64"], ["revision", 3, "int64"], ["raftTerm", 4, "uint64"]]);
message("KeyValue", [
  ["key", 1, "bytes"],
  ["createRevision", 2, "int64"],
  ["modRevision", 3, "int64"],
  ["version", 4, "int64"],
  ["value", 5, "bytes"],
  ["lease", 6, "int64"],
]);
/** mvccpb.Event: type 0 = PUT, 1 = DELETE. */
message("Event", [["type", 1, "int32"], ["kv", 2, "KeyValue"], ["prevKv", 3, "KeyValue"]]);

export const RangeRequest = message("RangeRequest", [
  ["key", 1, "bytes"],
  ["rangeEnd", 2, "bytes"],
  ["limit", 3, "int64"],
  ["revision", 4, "int64"],
  ["sortOrder", 5, "int32"],
  ["sortTarget", 6, "int32"],
  ["serializable", 7, "bool"],
  ["keysOnly", 8, "bool"],
  ["countOnly", 9, "bool"],
]);
export const RangeResponse = message("RangeResponse", [
  ["header", 1, "ResponseHeader"],
  ["kvs", 2, "KeyValue", "repeated"],
  ["more", 3, "bool"],
  ["count", 4, "int64"],
]);
message("PutRequest", [["key", 1, "bytes"], ["value", 2, "bytes"], ["lease", 3, "int64"], ["prevKv", 4, "bool"]]);
message("PutResponse", [["header", 1, "ResponseHeader"], ["prevKv", 2, "KeyValue"]]);
message("DeleteRangeRequest", [["key", 1, "bytes"], ["rangeEnd", 2, "bytes"], ["prevKv", 3, "bool"]]);
message("DeleteRangeResponse", [["header", 1, "ResponseHeader"], ["deleted", 2, "int64"], ["prevKvs", 3, "KeyValue", "repeated"]]);
message("RequestOp", [["requestRange", 1, "RangeRequest"], ["requestPut", 2, "PutRequest"], [
  "requestDeleteRange",
  3,
  "DeleteRangeRequest",
]], {
  request: ["requestRange", "requestPut", "requestDeleteRange"],
});
message("ResponseOp", [["responseRange", 1, "RangeResponse"], ["responsePut", 2, "PutResponse"], [
  "responseDeleteRange",
  3,
  "DeleteRangeResponse",
]], {
  response: ["responseRange", "responsePut", "responseDeleteRange"],
});
/** result: 0 EQUAL, 1 GREATER, 2 LESS, 3 NOT_EQUAL; target: 0 VERSION, 1 CREATE, 2 MOD, 3 VALUE. */
message("Compare", [
  ["result", 1, "int32"],
  ["target", 2, "int32"],
  ["key", 3, "bytes"],
  ["version", 4, "int64"],
  ["createRevision", 5, "int64"],
  ["modRevision", 6, "int64"],
  ["value", 7, "bytes"],
], { targetUnion: ["version", "createRevision", "modRevision", "value"] });
export const TxnRequest = message("TxnRequest", [
  ["compare", 1, "Compare", "repeated"],
  ["success", 2, "RequestOp", "repeated"],
  ["failure", 3, "RequestOp", "repeated"],
]);
export const TxnResponse = message("TxnResponse", [
  ["header", 1, "ResponseHeader"],
  ["succeeded", 2, "bool"],
  ["responses", 3, "ResponseOp", "repeated"],
]);
export const CompactionRequest = message("CompactionRequest", [["revision", 1, "int64"], ["physical", 2, "bool"]]);
export const CompactionResponse = message("CompactionResponse", [["header", 1, "ResponseHeader"]]);
message("WatchCreateRequest", [
  ["key", 1, "bytes"],
  ["rangeEnd", 2, "bytes"],
  ["startRevision", 3, "int64"],
  ["progressNotify", 4, "bool"],
  ["prevKv", 6, "bool"],
  ["watchId", 7, "int64"],
  ["fragment", 8, "bool"],
]);
message("WatchCancelRequest", [["watchId", 1, "int64"]]);
export const WatchRequest = message("WatchRequest", [["createRequest", 1, "WatchCreateRequest"], [
  "cancelRequest",
  2,
  "WatchCancelRequest",
]], {
  requestUnion: ["createRequest", "cancelRequest"],
});
export const WatchResponse = message("WatchResponse", [
  ["header", 1, "ResponseHeader"],
  ["watchId", 2, "int64"],
  ["created", 3, "bool"],
  ["canceled", 4, "bool"],
  ["compactRevision", 5, "int64"],
  ["cancelReason", 6, "string"],
  ["fragment", 7, "bool"],
  ["events", 11, "Event", "repeated"],
]);

root.resolveAll();

export interface EtcdKeyValue {
  key: Uint8Array;
  createRevision: number;
  modRevision: number;
  version: number;
  value: Uint8Array;
}

export interface ResponseHeader {
  revision: number;
}

export interface EtcdRangeResponse {
  header: ResponseHeader;
  kvs: EtcdKeyValue[];
  more: boolean;
  count: number;
}

export interface EtcdEvent {
  /** 0 PUT, 1 DELETE. */
  type: number;
  kv: EtcdKeyValue;
  prevKv?: EtcdKeyValue;
}

export interface EtcdWatchResponse {
  header: ResponseHeader;
  watchId: number;
  created: boolean;
  canceled: boolean;
  compactRevision: number;
  cancelReason: string;
  fragment: boolean;
  events: EtcdEvent[];
}

export interface EtcdTxnResponse {
  header: ResponseHeader;
  succeeded: boolean;
  responses: {
    responseRange?: EtcdRangeResponse;
    responsePut?: { header: ResponseHeader; prevKv?: EtcdKeyValue };
    responseDeleteRange?: { header: ResponseHeader; deleted: number; prevKvs: EtcdKeyValue[] };
  }[];
}

export function encodeMessage(type: protobuf.Type, value: Record<string, unknown>): Uint8Array {
  return type.encode(type.fromObject(value)).finish();
}

/** Decodes with int64s as numbers (revisions stay far below 2^53) and every scalar present. */
export function decodeMessage<T>(type: protobuf.Type, bytes: Uint8Array): T {
  return type.toObject(type.decode(bytes), { longs: Number, defaults: true, arrays: true }) as T;
}
