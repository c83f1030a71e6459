/**
 * The server's parsed flags (parsed by core/server/flags.ts): one field per kube-apiserver flag kubun supports.
 * A leaf module, so every layer can take the options it reads without importing the server.
 */
/** kube's AuditOptions: the audit flags, validated and applied by core/audit. */
export interface AuditOptions {
  auditPolicyFile: string;
  auditLogPath: string;
  auditLogFormat: string;
  auditLogMaxage: number;
  auditLogMaxbackup: number;
  auditLogMaxsize: number;
  auditLogCompress: boolean;
  auditLogMode: string;
  auditLogBatchBufferSize: number;
  auditLogBatchMaxSize: number;
  auditLogBatchMaxWaitMs: number;
  auditLogBatchThrottleEnable: boolean;
  auditLogBatchThrottleQps: number;
  auditLogBatchThrottleBurst: number;
  auditLogTruncateEnabled: boolean;
  auditLogTruncateMaxBatchSize: number;
  auditLogTruncateMaxEventSize: number;
  auditLogVersion: string;
  auditWebhookConfigFile: string;
  auditWebhookInitialBackoffMs: number;
  auditWebhookMode: string;
  auditWebhookBatchBufferSize: number;
  auditWebhookBatchMaxSize: number;
  auditWebhookBatchMaxWaitMs: number;
  auditWebhookBatchThrottleEnable: boolean;
  auditWebhookBatchThrottleQps: number;
  auditWebhookBatchThrottleBurst: number;
  auditWebhookTruncateEnabled: boolean;
  auditWebhookTruncateMaxBatchSize: number;
  auditWebhookTruncateMaxEventSize: number;
  auditWebhookVersion: string;
}

/** The audit flags are kube's AuditOptions. */
export interface ServerConfig extends AuditOptions {
  securePort: number;
  /** --logging-format and -v (component-base/logs). */
  loggingFormat: string;
  verbosity: number;
  bindAddress: string;
  dataDir: string;
  tlsCertFile: string;
  tlsPrivateKeyFile: string;
  clientCaFile: string;
  maxRequestBytes: number;
  /** kube's --feature-gates: the gates set explicitly (featureEnabled in feature-gates.ts answers for any gate). */
  featureGates: Record<string, boolean>;
  /** kube's graceful lifecycle: /livez forgives failing checks this long after start; on SIGTERM /readyz fails this long before requests stop being taken, which with shutdownSendRetryAfter is by a 429 until those in flight are done. */
  livezGracePeriodMs: number;
  shutdownDelayDurationMs: number;
  shutdownSendRetryAfter: boolean;
  /** kube's --request-timeout: the longest a request that is not long-running may take. */
  requestTimeoutMs: number;
  /** kube's --min-request-timeout: a watch without timeoutSeconds lasts a random time between this and twice it. */
  minRequestTimeoutSeconds: number;
  /** kube's in-flight limits: each kind's cap without APF, their sum APF's total concurrency. */
  maxRequestsInflight: number;
  maxMutatingRequestsInflight: number;
  enablePriorityAndFairness: boolean;
  /** Connection bounds (hidden; kube's values by default, shorter in tests): header/body-stall and idle timeouts in ms, and the connection cap (0: sized from the open-file limit). */
  readHeaderTimeoutMs: number;
  idleConnectionTimeoutMs: number;
  maxConnections: number;
  /** Milliseconds of watch history kept for resuming watches. */
  watchCacheHistoryMs: number;
  storageSync: "FULL" | "NORMAL";
  /** Several kubun processes may open the data directory's database; false: this process holds it exclusively. */
  dataDirShared: boolean;
  /** k3s's --etcd-snapshot-schedule-cron: when to snapshot the database; "" for never. */
  snapshotScheduleCron: string;
  snapshotRetention: number;
  snapshotDir: string;
  /** kube's EncryptionConfiguration file: which resources are encrypted at rest, with which keys. */
  encryptionProviderConfig: string;
  encryptionProviderConfigAutomaticReload: boolean;
  /** kube's etcd flags: when etcdServers is set, etcd is the store instead of SQLite. */
  etcdServers: string[];
  etcdPrefix: string;
  etcdCafile: string;
  etcdCertfile: string;
  etcdKeyfile: string;
  /** kube's --etcd-compaction-interval; 0 turns this server's compaction off. */
  etcdCompactionIntervalMs: number;
  /** `group/resource#servers` entries, servers semicolon separated. */
  etcdServersOverrides: string[];
  /** kube's --storage-media-type: application/vnd.kubernetes.protobuf, application/json or application/yaml. */
  storageMediaType: string;
  anonymousAuth: boolean;
  tokenAuthFile: string;
  enableBootstrapTokenAuth: boolean;
  serviceAccountIssuer: string[];
  serviceAccountKeyFile: string[];
  serviceAccountSigningKeyFile: string;
  serviceAccountLookup: boolean;
  serviceAccountMaxTokenExpirationMs: number;
  apiAudiences: string[];
  oidcIssuerUrl: string;
  oidcClientId: string;
  oidcCaFile: string;
  oidcUsernameClaim: string;
  oidcUsernamePrefix: string;
  oidcGroupsClaim: string;
  oidcGroupsPrefix: string;
  oidcSigningAlgs: string[];
  /** key=value pairs. */
  oidcRequiredClaim: string[];
  authenticationTokenWebhookConfigFile: string;
  authenticationTokenWebhookCacheTtlMs: number;
  authenticationTokenWebhookVersion: string;
  requestheaderClientCaFile: string;
  requestheaderAllowedNames: string[];
  requestheaderUsernameHeaders: string[];
  requestheaderGroupHeaders: string[];
  requestheaderExtraHeadersPrefix: string[];
  /** Client certificate (and key) the aggregator presents to aggregated servers; default: issued by the front-proxy CA in --data-dir. */
  proxyClientCertFile: string;
  proxyClientKeyFile: string;
  /** Ordered authorizer names or module paths. */
  authorizationMode: string[];
  /** ABAC policy file: one JSON Policy per line. */
  authorizationPolicyFile: string;
  authorizationWebhookConfigFile: string;
  authorizationWebhookVersion: string;
  authorizationWebhookCacheAuthorizedTtlMs: number;
  authorizationWebhookCacheUnauthorizedTtlMs: number;
  /** Module paths of custom authenticators (kubun's own flag). */
  authenticationPlugin: string[];
  /** Admission plugins to turn on besides the defaults: kube names or module paths of custom plugins. */
  enableAdmissionPlugins: string[];
  disableAdmissionPlugins: string[];
  acceptUnimplementedAdmissionPlugins: string[];
  admissionControlConfigFile: string;
  /** Directory whose .ts/.js files are all enabled as custom admission plugins (kubun's own flag). */
  admissionPluginDir: string;
  /** kube-controller-manager's --controllers: names, `*` for the defaults, `-name` to disable. */
  controllers: string[];
  /** --controller-plugin: module paths of controller plugins. */
  controllerPlugin: string[];
  /** The CA the csrsigning controller signs with (kube-controller-manager's flags); empty = the data dir's cluster CA. */
  clusterSigningCertFile: string;
  clusterSigningKeyFile: string;
  /** Longest validity of a certificate the csrsigning controller issues. */
  clusterSigningDurationMs: number;
  /** Simulated Ready nodes sim-0..sim-<N-1> whose pods the server plays kubelet for. */
  simulatedNodes: number;
  /** kube-controller-manager's node lifecycle flags (the controller runs in-process). */
  nodeMonitorPeriodMs: number;
  nodeMonitorGracePeriodMs: number;
  nodeStartupGracePeriodMs: number;
  /** The DefaultTolerationSeconds admission plugin's tolerationSeconds for not-ready and unreachable nodes. */
  defaultNotReadyTolerationSeconds: number;
  defaultUnreachableTolerationSeconds: number;
  /** How many times faster than real time the CronJob controller's clock runs (hidden; for tests). */
  cronjobClockRate: number;
  leaderElect: boolean;
  leaderElectLeaseDurationMs: number;
  leaderElectRenewDeadlineMs: number;
  leaderElectRetryPeriodMs: number;
  /** kube's --runtime-config: which built-in APIs are served (core/registry/api-enablement.ts). */
  runtimeConfig: Record<string, string>;
  /** kube's --show-hidden-metrics-for-version: "" or the previous minor release, 1.25 (none of kubun's metrics is hidden in 1.26). */
  showHiddenMetricsForVersion: string;
  /** kube's --event-ttl: Events are removed this long after their last write. */
  eventTtlMs: number;
  /** CIDR Service cluster IPs come from. */
  serviceClusterIpRange: string;
  /** `<first>-<last>` NodePorts come from. */
  serviceNodePortRange: string;
  /** Kube OpenAPI documents whose descriptions are served in /openapi/v2 and /openapi/v3 (kubun's own flag). */
  openapiDescriptions: string[];
  config: string;
  help: boolean;
  version: boolean;
}
