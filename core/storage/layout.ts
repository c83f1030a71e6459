/**
 * How a backend shared with kube-apiserver names keys and encodes values: kubun's keys are
 * `/<group or "core">/<resource>/<namespace>/<name>` and its values are the object's JSON text; kube's etcd3 store
 * writes `<--etcd-prefix>/<resource prefix>/<namespace>/<name>` and values in its storage encoding.
 */
export interface KeyLayout {
  /** A kubun key or key prefix (ending in "/") → the backend key (below --etcd-prefix, starting with "/"). */
  toBackendKey(key: string): string;
  /** A backend key (below --etcd-prefix) → kubun's key; undefined for keys kubun does not serve. */
  fromBackendKey(backendKey: string): string | undefined;
}

export interface ValueCodec {
  /** kubun's stored JSON text of the object at `key` → the bytes kube stores, before encryption. */
  encode(key: string, jsonText: string): Uint8Array;
  /** The stored bytes (after decryption) → kubun's JSON text. Throws on bytes that are not an object. */
  decode(key: string, bytes: Uint8Array): string;
}

/** The layout where backend keys are kubun's keys and values its JSON text (for tests and the SQLite backend's shape). */
export const IDENTITY_LAYOUT: KeyLayout = { toBackendKey: (key) => key, fromBackendKey: (key) => key };
export const JSON_TEXT_CODEC: ValueCodec = {
  encode: (_key, jsonText) => new TextEncoder().encode(jsonText),
  decode: (_key, bytes) => new TextDecoder().decode(bytes),
};
