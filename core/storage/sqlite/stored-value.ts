/**
 * How `history.value` holds a value (format 3). TEXT: the value itself, as format 2 stored every value. BLOB: one tag
 * byte naming the codec, then the encoded bytes. Codec 1 is raw deflate with LEASE_DICTIONARY_V1 as preset
 * dictionary, used for keys under the prefixes the server names (the Leases kube rewrites on a timer forever) when
 * it is smaller: four renewed node and identity Leases then share one 1 KiB history page instead of taking a page
 * each (README "Storage format and flash writes"). Everything else stays TEXT, which a read hands on without work.
 *
 * Neither direction uses node:zlib's `dictionary` option: Bun 1.4's deflateRawSync with it now and then wrote a stream
 * that zlib inflates to something else (the same input, a different first byte), and Deno's inflateRawSync ignores
 * it and returns garbage. fflate deflates with the dictionary (plain JavaScript, the same bytes on every runtime),
 * and inflates the dictionary sent first as a stored block, which is what a preset dictionary is to the decoder: bytes
 * already in its window that later back-references may reach (RFC 1951, 3.2). Inflating with fflate rather than
 * node:zlib keeps node:zlib out of an idle server, which reads its Leases (~0.5 MB, bench/profiles/memory.md); a
 * Lease read takes ~6 µs once the JIT has it (node:zlib ~5), ~20 µs in the interpreter an idle server runs in.
 */
import { deflateSync, inflateSync } from "fflate";
import type { SqliteValue } from "../../runtime/sqlite-driver.ts";
import { LEASE_DICTIONARY_V1 } from "./lease-dictionary.ts";

/** The codec tags a BLOB value begins with. */
export const CODEC_DEFLATE_LEASE_DICTIONARY_V1 = 1;

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const dictionaryV1 = encoder.encode(LEASE_DICTIONARY_V1);

/**
 * Deflate reaches back at most 32 KiB (RFC 1951, 3.2.5; zlib's deflateSetDictionary keeps only the last window of a
 * longer dictionary, and fflate `dictionary.subarray(-32768)`): a longer dictionary would be bytes no value can use.
 */
const MAX_DICTIONARY_BYTES = 32_768;

/** A non-final stored block (BFINAL 0, BTYPE 00, then LEN and its complement) holding the dictionary. */
export function storedBlock(bytes: Uint8Array): Uint8Array {
  const length = bytes.length;
  if (length > MAX_DICTIONARY_BYTES) {
    throw new Error(`a deflate dictionary holds at most ${MAX_DICTIONARY_BYTES} bytes, not ${length}`);
  }
  const block = new Uint8Array(5 + length);
  block.set([0, length & 0xff, length >> 8, ~length & 0xff, (~length >> 8) & 0xff]);
  block.set(bytes, 5);
  return block;
}

const dictionaryV1Block = storedBlock(dictionaryV1);

/**
 * The stream a read inflates: the dictionary's stored block, then the value's deflated body. Kept between reads so
 * that a read copies only the body (the block is 2 KB); grown when a body does not fit.
 */
let inflateInput = new Uint8Array(dictionaryV1Block.length + 1024);
inflateInput.set(dictionaryV1Block);

function withDictionaryBlock(body: Uint8Array): Uint8Array {
  const length = dictionaryV1Block.length + body.length;
  if (length > inflateInput.length) {
    const grown = new Uint8Array(Math.max(length, inflateInput.length * 2));
    grown.set(dictionaryV1Block);
    inflateInput = grown;
  }
  inflateInput.set(body, dictionaryV1Block.length);
  return inflateInput.subarray(0, length);
}

/** Writes a value for `key` as it is stored: compressed under the given key prefixes when that is smaller, else the text. */
export type StoredValueEncoder = (key: string, value: string) => SqliteValue;

export function storedValueEncoder(compressedKeyPrefixes: readonly string[]): StoredValueEncoder {
  if (compressedKeyPrefixes.length === 0) return (_key, value) => value;
  return (key, value) => {
    // A JSON object, which the dictionary is made of; an encrypted value (`k8s:enc:...`) or any other encoding is
    // stored as the layer above gave it.
    if (!value.startsWith("{") || !compressedKeyPrefixes.some((prefix) => key.startsWith(prefix))) return value;
    const text = encoder.encode(value);
    // fflate's default memory level: `mem: 4` gave the same bytes for a Lease, only slower (~53 against ~48 µs on an
    // idle machine, ~85 against ~50 µs on a busy one).
    const deflated = deflateSync(text, { level: 9, dictionary: dictionaryV1 });
    if (deflated.length + 1 >= text.length) return value;
    const stored = new Uint8Array(deflated.length + 1);
    stored[0] = CODEC_DEFLATE_LEASE_DICTIONARY_V1;
    stored.set(deflated, 1);
    return stored;
  };
}

/** The value a `history.value` of `key` holds: every read of the column goes through here. */
export function decodeStoredValue(key: string, stored: SqliteValue): string {
  if (!(stored instanceof Uint8Array)) return String(stored);
  const tag = stored[0];
  if (tag !== CODEC_DEFLATE_LEASE_DICTIONARY_V1) {
    throw new Error(`the stored value of ${key} is encoded with codec ${tag ?? "(none)"}, which this kubun does not know`);
  }
  const inflated = inflateSync(withDictionaryBlock(stored.subarray(1)));
  return decoder.decode(inflated.subarray(dictionaryV1.length));
}
