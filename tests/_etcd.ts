/** Reads straight from a test etcd through its JSON gateway (etcd 3.4: POST /v3/kv/range), beside kubun. */
import { Buffer } from "node:buffer";

interface RangeAnswer {
  header: { revision: string };
  kvs?: { key: string; value?: string; mod_revision: string }[];
}

async function kvRange(endpoint: string, request: Record<string, unknown>): Promise<RangeAnswer> {
  const response = await fetch(`${endpoint}/v3/kv/range`, { method: "POST", body: JSON.stringify(request) });
  return await response.json();
}

const base64 = (bytes: string | Uint8Array) => Buffer.from(bytes).toString("base64");

/** One key's value, or undefined when etcd has no such key. */
export async function etcdValue(endpoint: string, key: string): Promise<Buffer | undefined> {
  const value = (await kvRange(endpoint, { key: base64(key) })).kvs?.[0]?.value;
  return value === undefined ? undefined : Buffer.from(value, "base64");
}

/** The revision of the key's last write (etcd's mod_revision), or undefined when etcd has no such key. */
export async function etcdModRevision(endpoint: string, key: string): Promise<number | undefined> {
  const kv = (await kvRange(endpoint, { key: base64(key) })).kvs?.[0];
  return kv === undefined ? undefined : Number(kv.mod_revision);
}

/** The etcd's current revision. */
export async function etcdRevision(endpoint: string): Promise<number> {
  return Number((await kvRange(endpoint, { key: base64("/"), count_only: true })).header.revision);
}

/** Every key under `prefix`, in key order. */
export async function etcdKeys(endpoint: string, prefix: string): Promise<string[]> {
  const end = Buffer.from(prefix);
  end[end.length - 1]!++;
  const kvs = (await kvRange(endpoint, { key: base64(prefix), range_end: base64(end), keys_only: true })).kvs ?? [];
  return kvs.map((kv) => Buffer.from(kv.key, "base64").toString());
}

/** Writes one key straight into a test etcd (POST /v3/kv/put), as another writer of the same etcd would. */
export async function etcdPut(endpoint: string, key: string, value: string): Promise<void> {
  const response = await fetch(`${endpoint}/v3/kv/put`, {
    method: "POST",
    body: JSON.stringify({ key: base64(key), value: base64(value) }),
  });
  if (!response.ok) throw new Error(`etcd put ${key}: ${response.status} ${await response.text()}`);
}

/** Deletes one key straight from a test etcd (POST /v3/kv/deleterange). */
export async function etcdDelete(endpoint: string, key: string): Promise<void> {
  const response = await fetch(`${endpoint}/v3/kv/deleterange`, { method: "POST", body: JSON.stringify({ key: base64(key) }) });
  if (!response.ok) throw new Error(`etcd delete ${key}: ${response.status} ${await response.text()}`);
}
