/** kube-apiserver's generic, secure serving, storage and global flags, and kubun's own test aids. */
import { boolFlag, durationFlag, enumFlag, intFlag, levelFlag, mapStringStringFlag, stringFlag, stringListFlag } from "./flag-types.ts";
import { defineFlag, type FlagSpec } from "./_flag-spec.ts";
import { FEATURE_GATES_USAGE, featureGatesFlag } from "./feature-gates.ts";

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
    section: "Generic flags",
    name: "feature-gates",
    key: "featureGates",
    type: featureGatesFlag,
    defaultValue: {},
    usage: FEATURE_GATES_USAGE,
  }),
  defineFlag({
    section: "Generic flags",
    name: "livez-grace-period",
    key: "livezGracePeriodMs",
    type: durationFlag,
    defaultValue: 0,
    usage:
      "This option represents the maximum amount of time it should take for apiserver to complete its startup sequence and become live. From apiserver's start time to when this amount of time has elapsed, /livez will assume that unfinished post-start hooks will complete successfully and therefore return true.",
  }),
  defineFlag({
    section: "Generic flags",
    name: "shutdown-delay-duration",
    key: "shutdownDelayDurationMs",
    type: durationFlag,
    defaultValue: 0,
    usage:
      "Time to delay the termination. During that time the server keeps serving requests normally. The endpoints /healthz and /livez will return success, but /readyz immediately returns failure. Graceful termination starts after this delay has elapsed. This can be used to allow load balancer to stop sending traffic to this server.",
  }),
  defineFlag({
    section: "Generic flags",
    name: "shutdown-send-retry-after",
    key: "shutdownSendRetryAfter",
    type: boolFlag,
    defaultValue: false,
    usage:
      "If true the HTTP Server will continue listening until all non long running request(s) in flight have been drained, during this window all incoming requests will be rejected with a status code 429 and a 'Retry-After' response header, in addition 'Connection: close' response header is set in order to tear down the TCP connection when idle.",
  }),
  defineFlag({
    section: "Generic flags",
    name: "request-timeout",
    key: "requestTimeoutMs",
    type: durationFlag,
    defaultValue: 60_000,
    usage:
      "An optional field indicating the duration a handler must keep a request open before timing it out. This is the default request timeout for requests but may be overridden by flags such as --min-request-timeout for specific types of requests.",
  }),
  defineFlag({
    section: "Generic flags",
    name: "min-request-timeout",
    key: "minRequestTimeoutSeconds",
    type: intFlag,
    defaultValue: 1800,
    usage:
      "An optional field indicating the minimum number of seconds a handler must keep a request open before timing it out. Currently only honored by the watch request handler, which picks a randomized value above this number as the connection timeout, to spread out load.",
  }),
  defineFlag({
    section: "Generic flags",
    name: "max-requests-inflight",
    key: "maxRequestsInflight",
    type: intFlag,
    defaultValue: 400,
    usage:
      "This and --max-mutating-requests-inflight are summed to determine the server's total concurrency limit (which must be positive) if --enable-priority-and-fairness is true. Otherwise, this flag limits the maximum number of non-mutating requests in flight, or a zero value disables the limit completely.",
  }),
  defineFlag({
    section: "Generic flags",
    name: "max-mutating-requests-inflight",
    key: "maxMutatingRequestsInflight",
    type: intFlag,
    defaultValue: 200,
    usage:
      "This and --max-requests-inflight are summed to determine the server's total concurrency limit (which must be positive) if --enable-priority-and-fairness is true. Otherwise, this flag limits the maximum number of mutating requests in flight, or a zero value disables the limit completely.",
  }),
  defineFlag({
    section: "Generic flags",
    name: "enable-priority-and-fairness",
    key: "enablePriorityAndFairness",
    type: boolFlag,
    defaultValue: true,
    usage:
      "If true and the APIPriorityAndFairness feature gate is enabled, replace the max-in-flight handler with an enhanced one that queues and dispatches with priority and fairness",
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
    name: "data-dir-shared",
    key: "dataDirShared",
    type: boolFlag,
    defaultValue: false,
    usage: "Let several kubun processes share --data-dir (every one of them started with this flag). Costs SQLite's shared " +
      "wal-index file kubun.db-shm, which the kernel writes back every 30 s: about 1.5-2 MB/hour more writes when idle.",
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
    section: "API enablement flags",
    name: "runtime-config",
    key: "runtimeConfig",
    type: mapStringStringFlag,
    defaultValue: {},
    usage: [
      "A set of key=value pairs that enable or disable built-in APIs. Supported options are:",
      "v1=true|false for the core API group",
      "<group>/<version>=true|false for a specific API group and version (e.g. apps/v1=true)",
      "api/all=true|false controls all API versions",
      "api/ga=true|false controls all API versions of the form v[0-9]+",
      "api/beta=true|false controls all API versions of the form v[0-9]+beta[0-9]+",
      "api/alpha=true|false controls all API versions of the form v[0-9]+alpha[0-9]+",
      "api/legacy is deprecated, and will be removed in a future version",
    ].join("\n"),
  }),
  defineFlag({
    section: "Metrics flags",
    name: "show-hidden-metrics-for-version",
    key: "showHiddenMetricsForVersion",
    type: stringFlag,
    defaultValue: "",
    usage:
      "The previous version for which you want to show hidden metrics. Only the previous minor version is meaningful, other values will not be allowed. The format is <major>.<minor>, e.g.: '1.16'. The purpose of this format is make sure you have the opportunity to notice if the next release hides additional metrics, rather than being surprised when they are permanently removed in the release after that.",
  }),
  defineFlag({
    section: "Misc flags",
    name: "event-ttl",
    key: "eventTtlMs",
    type: durationFlag,
    defaultValue: 3_600_000,
    usage: "Amount of time to retain events.",
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
