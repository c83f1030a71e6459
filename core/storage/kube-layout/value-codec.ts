/**
 * kubun's stored JSON text ↔ the bytes kube-apiserver 1.26 stores: the object in its resource's storage version,
 * apiVersion and kind set, no resourceVersion (the etcd3 store's PrepareObjectForStorage clears it), then protobuf
 * (`k8s\0` + runtime.Unknown, the protobuf serializer's Encode) or JSON (the JSON serializer's Encode: go-json.ts, in
 * Go's struct order: go-struct-order.ts).
 * Custom resources, CustomResourceDefinitions and APIServices are always JSON, as kube keeps them. Reading accepts
 * either encoding whatever the media type, as kube's storage codec recognises the protobuf magic.
 */
import { decodeProtobufObject, encodeProtobufObject, PROTOBUF_MAGIC } from "../../api/protobuf/mod.ts";
import { parseJSONExact } from "../../api/exact-integers.ts";
import { isPlainObject, type KubeObject } from "../../api/types.ts";
import type { ValueCodec } from "../layout.ts";
import { goJsonLine, withSortedKeys } from "./go-json.ts";
import { inGoStructOrder } from "./go-struct-order.ts";
import { KUBE_STORED_RESOURCES, type KubeStoredResource, RANGE_ALLOCATIONS } from "./resources.ts";
import { CRD_V1, CRD_V1BETA1, crdToV1, crdToV1beta1 } from "./crd-v1beta1.ts";

export type StorageMediaType = "application/json" | "application/vnd.kubernetes.protobuf";

/** How kubun's stored form of a resource converts to and from one version of it (registry/conversion's VersionConversion). */
export interface StoredFormConversion {
  toStored(obj: KubeObject): KubeObject;
  fromStored(obj: KubeObject): KubeObject;
}

/** The conversion between kubun's stored form and `version` of a built-in resource, when the two differ in shape. */
export type StoredFormConversions = (type: { group: string; version: string; resource: string }) => StoredFormConversion | undefined;

const KUBUN_PRIVATE = "/_";

const AS_IS: StoredFormConversion = { toStored: (obj) => obj, fromStored: (obj) => obj };

/**
 * Conversions the layout owns, by apiVersion: kube stores CRDs as v1beta1 and reads v1 as well, while kubun's
 * registry serves and stores v1 only.
 */
const LAYOUT_CONVERSIONS: Record<string, Record<string, StoredFormConversion>> = {
  "apiextensions.k8s.io/customresourcedefinitions": {
    [CRD_V1BETA1]: { toStored: crdToV1, fromStored: crdToV1beta1 },
    [CRD_V1]: AS_IS,
  },
};

type Target = { kind: "private" } | { kind: "custom" } | { kind: "built-in"; groupResource: string; stored: KubeStoredResource };

function groupResourceOf(key: string): string {
  const first = key.indexOf("/", 1);
  const second = first < 0 ? -1 : key.indexOf("/", first + 1);
  if (second < 0) throw new Error(`not an object key: ${JSON.stringify(key)}`);
  return key.slice(1, second);
}

function targetOf(key: string): Target {
  if (key.startsWith(RANGE_ALLOCATIONS.kubunPrefix)) {
    return { kind: "built-in", groupResource: "core/rangeallocations", stored: RANGE_ALLOCATIONS.stored };
  }
  if (key.startsWith(KUBUN_PRIVATE)) return { kind: "private" };
  const groupResource = groupResourceOf(key);
  const stored = KUBE_STORED_RESOURCES[groupResource];
  return stored === undefined ? { kind: "custom" } : { kind: "built-in", groupResource, stored };
}

function parseObject(text: string): KubeObject {
  const value = parseJSONExact(text);
  if (!isPlainObject(value) || !isPlainObject(value.metadata)) throw new Error("stored value is not an object with metadata");
  return value as KubeObject;
}

/** What the etcd3 store's APIObjectVersioner.PrepareObjectForStorage clears before writing. */
function withoutResourceVersion(obj: KubeObject): KubeObject {
  const { resourceVersion: _version, selfLink: _selfLink, ...metadata } = obj.metadata;
  return { ...obj, metadata };
}

function hasMagic(bytes: Uint8Array): boolean {
  return PROTOBUF_MAGIC.every((byte, i) => bytes[i] === byte);
}

/** kubun's order: apiVersion, kind and metadata lead, as the registry stores objects (registry/codec.ts withEnvelopeFirst). */
function kubunText(obj: KubeObject): string {
  const { apiVersion, kind, metadata, ...rest } = withoutResourceVersion(obj);
  return JSON.stringify({ apiVersion, kind, metadata, ...rest });
}

export function kubeValueCodec(mediaType: StorageMediaType, conversions: StoredFormConversions): ValueCodec {
  const textEncoder = new TextEncoder();
  const textDecoder = new TextDecoder("utf-8", { fatal: true });
  /** Between kubun's stored form of `groupResource` and `apiVersion`; undefined where they have one shape. */
  const conversionOf = (groupResource: string, apiVersion: string): StoredFormConversion | undefined => {
    const own = LAYOUT_CONVERSIONS[groupResource];
    if (own !== undefined) return own[apiVersion];
    const [group, version] = apiVersion.includes("/") ? apiVersion.split("/") : ["", apiVersion];
    return conversions({ group: group!, version: version!, resource: groupResource.slice(groupResource.indexOf("/") + 1) });
  };
  return {
    encode(key, jsonText) {
      const target = targetOf(key);
      if (target.kind === "private") return textEncoder.encode(jsonText);
      if (target.kind === "custom") {
        return textEncoder.encode(goJsonLine(withoutResourceVersion(parseObject(jsonText)), { sortKeys: true }));
      }
      const { stored } = target;
      const conversion = conversionOf(target.groupResource, stored.apiVersion);
      const parsed = parseObject(jsonText);
      const obj = withoutResourceVersion(conversion ? conversion.fromStored(parsed) : parsed);
      if (obj.apiVersion !== stored.apiVersion || obj.kind !== stored.kind) {
        throw new Error(`${key} holds ${obj.apiVersion}/${obj.kind}, stored by kube as ${stored.apiVersion}/${stored.kind}`);
      }
      if (mediaType === "application/json" || stored.alwaysJson) {
        return textEncoder.encode(goJsonLine(inGoStructOrder(obj), { sortKeys: false }));
      }
      // Map entries in key order, as gogo's generated Marshal writes them; message fields go by field number anyway.
      return encodeProtobufObject(withSortedKeys(obj) as KubeObject, stored.apiVersion, stored.kind);
    },
    decode(key, bytes) {
      const target = targetOf(key);
      if (target.kind === "private") return textDecoder.decode(bytes);
      const obj = hasMagic(bytes) ? decodeProtobufObject(bytes).object as KubeObject : parseObject(textDecoder.decode(bytes));
      if (!isPlainObject(obj.metadata)) throw new Error(`${key} does not hold an object with metadata`);
      if (target.kind === "custom") return kubunText(obj);
      // kube's storage decoder takes any version it knows; kubun converts the versions it has a conversion for.
      const conversion = conversionOf(target.groupResource, String(obj.apiVersion));
      if (conversion) return kubunText(conversion.toStored(obj));
      if (obj.apiVersion !== target.stored.apiVersion) {
        throw new Error(`${key} holds ${obj.apiVersion}/${obj.kind}, a version kubun cannot convert`);
      }
      return kubunText(obj);
    },
  };
}
