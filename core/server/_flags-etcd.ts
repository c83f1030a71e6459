/** kube-apiserver's etcd flags (apiserver pkg/server/options/etcd.go, EtcdOptions.AddFlags), 1.26 names and texts. */
import { durationFlag, stringFlag, stringListFlag } from "./flag-types.ts";
import { defineFlag, type FlagSpec } from "./_flag-spec.ts";

export const ETCD_FLAGS: readonly FlagSpec[] = [
  defineFlag({
    section: "Etcd flags",
    name: "etcd-servers",
    key: "etcdServers",
    type: stringListFlag,
    defaultValue: [],
    usage: "List of etcd servers to connect with (scheme://ip:port), comma separated.",
  }),
  defineFlag({
    section: "Etcd flags",
    name: "etcd-prefix",
    key: "etcdPrefix",
    type: stringFlag,
    defaultValue: "/registry",
    usage: "The prefix to prepend to all resource paths in etcd.",
  }),
  defineFlag({
    section: "Etcd flags",
    name: "etcd-cafile",
    key: "etcdCafile",
    type: stringFlag,
    defaultValue: "",
    usage: "SSL Certificate Authority file used to secure etcd communication.",
  }),
  defineFlag({
    section: "Etcd flags",
    name: "etcd-certfile",
    key: "etcdCertfile",
    type: stringFlag,
    defaultValue: "",
    usage: "SSL certification file used to secure etcd communication.",
  }),
  defineFlag({
    section: "Etcd flags",
    name: "etcd-keyfile",
    key: "etcdKeyfile",
    type: stringFlag,
    defaultValue: "",
    usage: "SSL key file used to secure etcd communication.",
  }),
  defineFlag({
    section: "Etcd flags",
    name: "etcd-compaction-interval",
    key: "etcdCompactionIntervalMs",
    type: durationFlag,
    defaultValue: 300_000,
    usage: "The interval of compaction requests. If 0, the compaction request from apiserver is disabled.",
  }),
  defineFlag({
    section: "Etcd flags",
    name: "etcd-servers-overrides",
    key: "etcdServersOverrides",
    type: stringListFlag,
    defaultValue: [],
    usage:
      "Per-resource etcd servers overrides, comma separated. The individual override format: group/resource#servers, where servers are URLs, semicolon separated. Note that this applies only to resources compiled into this server binary. ",
  }),
  defineFlag({
    section: "Etcd flags",
    name: "storage-media-type",
    key: "storageMediaType",
    type: stringFlag,
    defaultValue: "application/vnd.kubernetes.protobuf",
    usage:
      "The media type to use to store objects in storage. Some resources or storage backends may only support a specific media type and will ignore this setting. Supported media types: [application/json, application/yaml, application/vnd.kubernetes.protobuf]",
  }),
];
