/**
 * The one place that picks how the etcd backend names keys and encodes values: kube-apiserver 1.26's key layout
 * and storage encoding (--storage-media-type), so kube-apiserver and kubun read each other's objects in one etcd.
 */
import type { ServerConfig } from "../config/mod.ts";
import type { KeyLayout, ValueCodec } from "../storage/layout.ts";
import { kubeKeyLayout, kubeValueCodec, type StorageMediaType } from "../storage/kube-layout/mod.ts";
import { versionConversionFor } from "../registry/conversion/mod.ts";

const STORED_MEDIA_TYPES: readonly string[] = ["application/json", "application/vnd.kubernetes.protobuf"];

export function storageLayoutFor(config: Pick<ServerConfig, "storageMediaType">): { layout: KeyLayout; codec: ValueCodec } {
  if (!STORED_MEDIA_TYPES.includes(config.storageMediaType)) {
    throw new Error(
      `--storage-media-type ${JSON.stringify(config.storageMediaType)}: kubun stores objects in etcd as ${STORED_MEDIA_TYPES.join(" or ")}`,
    );
  }
  return { layout: kubeKeyLayout(), codec: kubeValueCodec(config.storageMediaType as StorageMediaType, versionConversionFor) };
}
