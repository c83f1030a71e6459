/** kube-apiserver's generic, secure serving, storage and global flags, and kubun's own test aids. */
import { boolFlag, durationFlag, enumFlag, intFlag, levelFlag, stringFlag, stringListFlag } from "./flag-types.ts";
import { defineFlag, type FlagSpec } from "./_flag-spec.ts";

export const GENERIC_FLAGS: readonly FlagSpec[] = [
  defineFlag({
    section: "Generic flags",
    name: "config",
    key: "config",
    type: stringFlag,
    defaultValue: "",
    usage: "A YAML file whose keys are flag names without dashes (e.g. secure-port: 7443); the command line overrides it.",
  }),
  defineFlag({
    section: "Generic flags",
    name: "openapi-descriptions",
    key: "openapiDescriptions",
    type: stringListFlag,
    defaultValue: [],
    usage:
      "Kube OpenAPI v2 or v3 documents (e.g. kubernetes' api/openapi-spec/swagger.json) whose descriptions are merged into /openapi/v2 and /openapi/v3, for kubectl explain (repeatable).",
  }),
  defineFlag({
    section: "Generic flags",
    name: "max-request-bytes",
    key: "maxRequestBytes",
    type: intFlag,
    defaultValue: 3145728,
    usage: "The largest request body accepted, in bytes; larger requests are answered with 413.",
  }),
  defineFlag({
    section: "Secure serving flags",
    name: "read-header-timeout",
    key: "readHeaderTimeoutMs",
    type: durationFlag,
    defaultValue: 32_000,
    hidden: true,
    usage: "Time a connection has to send a request head, and the longest pause inside a request body (kube's ReadHeaderTimeout).",
  }),
  defineFlag({
    section: "Secure serving flags",
    name: "idle-connection-timeout",
    key: "idleConnectionTimeoutMs",
    type: durationFlag,
    defaultValue: 90_000,
    hidden: true,
    usage: "Time a kept-alive connection may wait for its next request (kube's IdleTimeout).",
  }),
  defineFlag({
    section: "Secure serving flags",
    name: "max-connections",
    key: "maxConnections",
    type: intFlag,
    defaultValue: 0,
    hidden: true,
    usage: "Open connections beyond which new ones are refused; 0 sizes the cap from the open-file limit.",
  }),
  defineFlag({
    section: "Secure serving flags",
    name: "bind-address",
    key: "bindAddress",
    type: stringFlag,
    defaultValue: "127.0.0.1",
    usage: "The IP address on which to listen for the --secure-port port (0.0.0.0 or :: for all interfaces).",
  }),
  defineFlag({
    section: "Secure serving flags",
    name: "secure-port",
    key: "securePort",
    type: intFlag,
    defaultValue: 6443,
    usage: "The port on which to serve HTTPS with authentication and authorization (0 picks a free port).",
  }),
  defineFlag({
    section: "Secure serving flags",
    name: "tls-cert-file",
    key: "tlsCertFile",
    type: stringFlag,
    defaultValue: "",
    usage: "File containing the x509 serving certificate (PEM); if empty, one is generated in --data-dir.",
  }),
  defineFlag({
    section: "Secure serving flags",
    name: "tls-private-key-file",
    key: "tlsPrivateKeyFile",
    type: stringFlag,
    defaultValue: "",
    usage: "File containing the x509 private key matching --tls-cert-file.",
  }),
];

export const STORAGE_FLAGS: readonly FlagSpec[] = [
  defineFlag({
    section: "Storage flags",
    name: "data-dir",
    key: "dataDir",
    type: stringFlag,
    defaultValue: "./kubun-data",
    usage: "Directory holding the database, certificates and the admin kubeconfig.",
  }),
  defineFlag({
    section: "Storage flags",
    name: "encryption-provider-config",
    key: "encryptionProviderConfig",
    type: stringFlag,
    defaultValue: "",
    usage:
      "The file containing configuration for encryption providers to be used for storing secrets (and other resources) at rest (kube's EncryptionConfiguration).",
  }),
  defineFlag({
    section: "Storage flags",
    name: "encryption-provider-config-automatic-reload",
    key: "encryptionProviderConfigAutomaticReload",
    type: boolFlag,
    defaultValue: false,
    usage: "Determines if the file set by --encryption-provider-config should be automatically reloaded if the disk contents change.",
  }),
  defineFlag({
    section: "Storage flags",
    name: "snapshot-schedule-cron",
    key: "snapshotScheduleCron",
    type: stringFlag,
    defaultValue: "0 */12 * * *",
    usage:
      "Snapshot interval time in cron spec (k3s's --etcd-snapshot-schedule-cron); eg. every 5 hours '0 */5 * * *'; empty disables scheduled snapshots.",
  }),
  defineFlag({
    section: "Storage flags",
    name: "snapshot-retention",
    key: "snapshotRetention",
    type: intFlag,
    defaultValue: 5,
    usage: "Number of scheduled snapshots to retain.",
  }),
  defineFlag({
    section: "Storage flags",
    name: "snapshot-dir",
    key: "snapshotDir",
    type: stringFlag,
    defaultValue: "",
    usage: "Directory to save scheduled snapshots to (default: <data-dir>/snapshots).",
  }),
  defineFlag({
    section: "Storage flags",
    name: "storage-sync",
    key: "storageSync",
    type: enumFlag(["FULL", "NORMAL"] as const),
    defaultValue: "FULL",
    usage: "SQLite synchronous mode: FULL syncs every commit, NORMAL may lose the last commits on power loss.",
  }),
  defineFlag({
    section: "Storage flags",
    name: "watch-cache-history",
    key: "watchCacheHistoryMs",
    type: durationFlag,
    defaultValue: 300_000,
    usage: "How long watch events are kept for resuming watches from an older resourceVersion.",
  }),
  defineFlag({
    section: "Misc flags",
    name: "service-cluster-ip-range",
    key: "serviceClusterIpRange",
    type: stringFlag,
    defaultValue: "10.0.0.0/24",
    usage: "A CIDR IP range from which to assign service cluster IPs.",
  }),
  defineFlag({
    section: "Misc flags",
    name: "service-node-port-range",
    key: "serviceNodePortRange",
    type: stringFlag,
    defaultValue: "30000-32767",
    usage: "A port range to reserve for services with NodePort visibility (inclusive at both ends).",
  }),
];

/** component-base/logs' flags (logs/api/v1 addFlags). */
export const LOGS_FLAGS: readonly FlagSpec[] = [
  defineFlag({
    section: "Logs flags",
    name: "logging-format",
    key: "loggingFormat",
    type: stringFlag,
    defaultValue: "text",
    usage: 'Sets the log format. Permitted formats: "json" (gated by LoggingBetaOptions), "text".',
  }),
  defineFlag({
    section: "Logs flags",
    name: "v",
    shorthand: "v",
    key: "verbosity",
    type: levelFlag,
    defaultValue: 0,
    usage: "number for the log level verbosity",
  }),
];

export const GLOBAL_FLAGS: readonly FlagSpec[] = [
  defineFlag({
    section: "Global flags",
    name: "help",
    shorthand: "h",
    key: "help",
    type: boolFlag,
    defaultValue: false,
    usage: "help for kubun",
  }),
  defineFlag({
    section: "Global flags",
    name: "version",
    key: "version",
    type: boolFlag,
    defaultValue: false,
    usage: "Print version information and quit.",
  }),
];
