/**
 * A small etcd v3 client on @grpc/grpc-js: unary KV calls (Range, Txn, Compact) and Watch streams, over one or more
 * endpoints (`http://` plain, `https://` with the --etcd-cafile/--etcd-certfile/--etcd-keyfile credentials). A call
 * that finds its endpoint unavailable is tried on the next one, as clientv3's balancer moves to another member.
 * Every unary call carries a deadline. etcd's errors come back as the storage contract's (Compacted,
 * FutureRevision) or as kube's answers to a failed storage call: 504 when the deadline passed, 500 otherwise.
 */
import { type Client, type ClientDuplexStream, credentials, makeGenericClientConstructor, Metadata, status } from "@grpc/grpc-js";
import { isIP } from "node:net";
import { checkServerIdentity } from "node:tls";
import type protobuf from "protobufjs/light.js";
import { newTimeoutError, newUnknownError } from "../../api/errors.ts";
import { GrpcError } from "../encryption/mod.ts";
import { compactedError, futureRevisionError, StorageError } from "../storage.ts";
import {
  CompactionRequest,
  CompactionResponse,
  decodeMessage,
  encodeMessage,
  type EtcdRangeResponse,
  type EtcdTxnResponse,
  type EtcdWatchResponse,
  RangeRequest,
  RangeResponse,
  TxnRequest,
  TxnResponse,
  WatchRequest,
  WatchResponse,
} from "./_messages.ts";

export interface EtcdTls {
  /** PEM bytes of --etcd-cafile, --etcd-certfile and --etcd-keyfile. */
  ca?: Uint8Array;
  cert?: Uint8Array;
  key?: Uint8Array;
}

export interface EtcdClientOptions {
  /** `http://host:port` or `https://host:port` URLs. */
  endpoints: readonly string[];
  tls?: EtcdTls;
  /** Deadline of each unary call; default 15 s. */
  callTimeoutMs?: number;
}

export type WatchCall = ClientDuplexStream<Record<string, unknown>, EtcdWatchResponse>;

const CHANNEL_OPTIONS = {
  "grpc.keepalive_time_ms": 30_000,
  "grpc.keepalive_timeout_ms": 10_000,
  "grpc.max_receive_message_length": -1,
  "grpc.max_send_message_length": -1,
};

export class EtcdClient {
  readonly #clients: Client[];
  readonly #callTimeoutMs: number;
  #current = 0;

  constructor(options: EtcdClientOptions) {
    if (options.endpoints.length === 0) throw new Error("--etcd-servers must be specified");
    this.#callTimeoutMs = options.callTimeoutMs ?? 15_000;
    const Generic = makeGenericClientConstructor({}, "etcdserverpb");
    this.#clients = options.endpoints.map((endpoint) => {
      const url = parseEndpoint(endpoint);
      if (url.protocol === "http:") return new Generic(url.host, credentials.createInsecure(), CHANNEL_OPTIONS);
      // grpc-js sends the target host as the TLS server name, which Bun refuses for an IP address: an IP endpoint
      // gets a stand-in name, and its certificate is still checked against the IP.
      const ip = url.hostname.replace(/^\[|\]$/g, "");
      const byIp = isIP(ip) !== 0;
      const creds = credentials.createSsl(
        bytes(options.tls?.ca),
        bytes(options.tls?.key),
        bytes(options.tls?.cert),
        byIp ? { checkServerIdentity: (_name, cert) => checkServerIdentity(ip, cert) } : {},
      );
      return new Generic(url.host, creds, byIp ? { ...CHANNEL_OPTIONS, "grpc.ssl_target_name_override": "etcd" } : CHANNEL_OPTIONS);
    });
  }

  range(request: Record<string, unknown>): Promise<EtcdRangeResponse> {
    return this.#unary("/etcdserverpb.KV/Range", RangeRequest, RangeResponse, request);
  }

  txn(request: Record<string, unknown>): Promise<EtcdTxnResponse> {
    return this.#unary("/etcdserverpb.KV/Txn", TxnRequest, TxnResponse, request);
  }

  async compact(revision: number): Promise<void> {
    await this.#unary("/etcdserverpb.KV/Compact", CompactionRequest, CompactionResponse, { revision });
  }

  /** Opens a Watch stream on the endpoint in use; `failed()` moves later calls and streams to another endpoint. */
  watch(): { call: WatchCall; failed(): void } {
    const client = this.#clients[this.#current]!;
    const call = client.makeBidiStreamRequest(
      "/etcdserverpb.Watch/Watch",
      (message: Record<string, unknown>) => Buffer.from(encodeMessage(WatchRequest, message)),
      (bytes: Buffer) => decodeMessage<EtcdWatchResponse>(WatchResponse, bytes),
      new Metadata(),
    );
    return { call, failed: () => this.#failedOn(client) };
  }

  /** The endpoint `client` talks to failed: unless another call moved on already, the next one is used from now on. */
  #failedOn(client: Client): void {
    if (this.#clients[this.#current] === client) this.#current = (this.#current + 1) % this.#clients.length;
  }

  close(): void {
    for (const client of this.#clients) client.close();
  }

  async #unary<T>(method: string, request: protobuf.Type, response: protobuf.Type, value: Record<string, unknown>): Promise<T> {
    let lastError: unknown;
    for (let tries = 0; tries < this.#clients.length; tries++) {
      const client = this.#clients[this.#current]!;
      try {
        return await this.#callOnce<T>(client, method, request, response, value);
      } catch (error) {
        lastError = error;
        if ((error as { code?: number }).code !== status.UNAVAILABLE) break;
        this.#failedOn(client);
      }
    }
    throw storageErrorOf(lastError);
  }

  #callOnce<T>(
    client: Client,
    method: string,
    request: protobuf.Type,
    response: protobuf.Type,
    value: Record<string, unknown>,
  ): Promise<T> {
    return new Promise((resolve, reject) => {
      client.makeUnaryRequest(
        method,
        (message: Record<string, unknown>) => Buffer.from(encodeMessage(request, message)),
        (bytes: Buffer) => decodeMessage<T>(response, bytes),
        value,
        new Metadata(),
        { deadline: Date.now() + this.#callTimeoutMs },
        (error, result) => (error ? reject(error) : resolve(result as T)),
      );
    });
  }
}

function parseEndpoint(endpoint: string): URL {
  const url = new URL(endpoint.includes("://") ? endpoint : `http://${endpoint}`);
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new Error(`etcd endpoint ${endpoint}: want http:// or https://`);
  return url;
}

function bytes(data: Uint8Array | undefined): Buffer | null {
  return data ? Buffer.from(data) : null;
}

/**
 * A failed call as the storage layer reports it: etcd's revision errors as the contract's codes; a passed deadline
 * as kube's timeout (finishRequest's 504 "request did not complete within requested timeout - context deadline
 * exceeded"); anything else as kube's ErrorToAPIStatus of a plain error (500, the gRPC status text).
 */
export function storageErrorOf(error: unknown): unknown {
  const { code, details } = error as { code?: unknown; details?: string };
  if (typeof code !== "number" || error instanceof StorageError) return error;
  if (code === status.OUT_OF_RANGE && details?.includes("required revision has been compacted")) return compactedError();
  if (code === status.OUT_OF_RANGE && details?.includes("required revision is a future revision")) return futureRevisionError();
  if (code === status.DEADLINE_EXCEEDED) {
    return newTimeoutError("request did not complete within requested timeout - context deadline exceeded");
  }
  return newUnknownError(new GrpcError(code, details ?? "").message);
}
