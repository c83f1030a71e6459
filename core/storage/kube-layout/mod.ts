/**
 * kube-apiserver 1.26's etcd layout for a backend kube and kubun can share: its keys (key-layout.ts, from the
 * prefixes in resources.ts) and its storage encoding of values (value-codec.ts).
 */
export { kubeKeyLayout } from "./key-layout.ts";
export { kubeValueCodec, type StorageMediaType, type StoredFormConversion, type StoredFormConversions } from "./value-codec.ts";
export { type EtcdOverrideStore, etcdOverrideStores } from "./etcd-overrides.ts";
