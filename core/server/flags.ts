/**
 * kube-apiserver's command line (the flags kubun supports), declared in one table: a new flag is one
 * `defineFlag` line plus its ServerConfig field. Sources, strongest first: command line, KUBUN_<NAME>
 * environment variables, the --config YAML file, the defaults.
 */
import { boolFlag, durationFlag, enumFlag, type FlagType, float32Flag, intFlag, stringFlag, stringListFlag } from "./flag-types.ts";
import { readConfigFile } from "./config-file.ts";

export interface ServerConfig {
  securePort: number;
  bindAddress: string;
  dataDir: string;
  tlsCertFile: string;
  tlsPrivateKeyFile: string;
  clientCaFile: string;
  maxRequestBytes: number;
  /** Connection bounds (hidden; kube's values by default, shorter in tests): header/body-stall and idle timeouts in ms, and the connection cap (0: sized from the open-file limit). */
  readHeaderTimeoutMs: number;
  idleConnectionTimeoutMs: number;
  maxConnections: number;
  /** Milliseconds of watch history kept for resuming watches. */
  watchCacheHistoryMs: number;
  storageSync: "FULL" | "NORMAL";
  /** k3s's --etcd-snapshot-schedule-cron: when to snapshot the database; "" for never. */
  snapshotScheduleCron: string;
  snapshotRetention: number;
  snapshotDir: string;
  /** kube's EncryptionConfiguration file: which resources are encrypted at rest, with which keys. */
  encryptionProviderConfig: string;
  encryptionProviderConfigAutomaticReload: boolean;
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
  /** CIDR Service cluster IPs come from. */
  serviceClusterIpRange: string;
  /** `<first>-<last>` NodePorts come from. */
  serviceNodePortRange: string;
  /** Kube OpenAPI documents whose descriptions are served in /openapi/v2 and /openapi/v3 (kubun's own flag). */
  openapiDescriptions: string[];
  /** Audit (kube's AuditOptions; core/audit validates them); durations in milliseconds. */
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
  auditWebhookConfigFile: string;
  auditWebhookInitialBackoffMs: number;
  auditWebhookMode: string;
  auditWebhookBatchBufferSize: number;
  auditWebhookBatchMaxSize: number;
  auditWebhookBatchMaxWaitMs: number;
  auditWebhookBatchThrottleEnable: boolean;
  auditWebhookBatchThrottleQps: number;
  auditWebhookBatchThrottleBurst: number;
  config: string;
  help: boolean;
  version: boolean;
}

interface FlagSpec<K extends keyof ServerConfig = keyof ServerConfig> {
  name: string;
  section: string;
  key: K;
  type: FlagType<ServerConfig[K]>;
  defaultValue: ServerConfig[K];
  usage: string;
  shorthand?: string;
  /** Left out of --help (test aids). */
  hidden?: boolean;
}

function defineFlag<K extends keyof ServerConfig>(spec: FlagSpec<K>): FlagSpec {
  return spec as unknown as FlagSpec;
}

const FLAGS: readonly FlagSpec[] = [
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
  defineFlag({
    section: "Authentication flags",
    name: "anonymous-auth",
    key: "anonymousAuth",
    type: boolFlag,
    defaultValue: true,
    usage: "Requests no other authenticator rejects are served as system:anonymous (off while the authorization mode is AlwaysAllow).",
  }),
  defineFlag({
    section: "Authentication flags",
    name: "token-auth-file",
    key: "tokenAuthFile",
    type: stringFlag,
    defaultValue: "",
    usage: 'CSV file of static bearer tokens: token,user,uid,"group1,group2".',
  }),
  defineFlag({
    section: "Authentication flags",
    name: "enable-bootstrap-token-auth",
    key: "enableBootstrapTokenAuth",
    type: boolFlag,
    defaultValue: false,
    usage: "Accept bootstrap tokens (Secrets of type bootstrap.kubernetes.io/token in kube-system) as bearer tokens.",
  }),
  defineFlag({
    section: "Authentication flags",
    name: "service-account-issuer",
    key: "serviceAccountIssuer",
    type: stringListFlag,
    defaultValue: ["https://kubernetes.default.svc.cluster.local"],
    usage: "Issuer of service account tokens; the first signs new tokens, all are accepted.",
  }),
  defineFlag({
    section: "Authentication flags",
    name: "service-account-key-file",
    key: "serviceAccountKeyFile",
    type: stringListFlag,
    defaultValue: [],
    usage: "PEM files of keys that verify service account tokens (repeatable); default: the signing key.",
  }),
  defineFlag({
    section: "Authentication flags",
    name: "service-account-signing-key-file",
    key: "serviceAccountSigningKeyFile",
    type: stringFlag,
    defaultValue: "",
    usage: "PEM private key that signs service account tokens; default: one generated in --data-dir.",
  }),
  defineFlag({
    section: "Authentication flags",
    name: "service-account-lookup",
    key: "serviceAccountLookup",
    type: boolFlag,
    defaultValue: true,
    usage: "Check that the service account (and the bound object) of a token still exists.",
  }),
  defineFlag({
    section: "Authentication flags",
    name: "service-account-max-token-expiration",
    key: "serviceAccountMaxTokenExpirationMs",
    type: durationFlag,
    defaultValue: 0,
    usage: "The longest lifetime a TokenRequest may ask for (0: no limit).",
  }),
  defineFlag({
    section: "Authentication flags",
    name: "api-audiences",
    key: "apiAudiences",
    type: stringListFlag,
    defaultValue: [],
    usage: "Audiences of the API; default: the service account issuer.",
  }),
  defineFlag({
    section: "Authentication flags",
    name: "oidc-issuer-url",
    key: "oidcIssuerUrl",
    type: stringFlag,
    defaultValue: "",
    usage: "https URL of the OpenID Connect issuer; enables OIDC bearer tokens.",
  }),
  defineFlag({
    section: "Authentication flags",
    name: "oidc-client-id",
    key: "oidcClientId",
    type: stringFlag,
    defaultValue: "",
    usage: "The audience OIDC ID tokens must be issued for.",
  }),
  defineFlag({
    section: "Authentication flags",
    name: "oidc-ca-file",
    key: "oidcCaFile",
    type: stringFlag,
    defaultValue: "",
    usage: "CA bundle that verifies the OIDC issuer's certificate; default: the system roots.",
  }),
  defineFlag({
    section: "Authentication flags",
    name: "oidc-username-claim",
    key: "oidcUsernameClaim",
    type: stringFlag,
    defaultValue: "sub",
    usage: "The claim used as the user name.",
  }),
  defineFlag({
    section: "Authentication flags",
    name: "oidc-username-prefix",
    key: "oidcUsernamePrefix",
    type: stringFlag,
    defaultValue: "",
    usage: "Prefix for user names ('-' for none; default: the issuer URL and '#' unless the claim is email).",
  }),
  defineFlag({
    section: "Authentication flags",
    name: "oidc-groups-claim",
    key: "oidcGroupsClaim",
    type: stringFlag,
    defaultValue: "",
    usage: "The claim holding the user's groups.",
  }),
  defineFlag({
    section: "Authentication flags",
    name: "oidc-groups-prefix",
    key: "oidcGroupsPrefix",
    type: stringFlag,
    defaultValue: "",
    usage: "Prefix for group names.",
  }),
  defineFlag({
    section: "Authentication flags",
    name: "oidc-signing-algs",
    key: "oidcSigningAlgs",
    type: stringListFlag,
    defaultValue: ["RS256"],
    usage: "JOSE signing algorithms accepted for ID tokens.",
  }),
  defineFlag({
    section: "Authentication flags",
    name: "oidc-required-claim",
    key: "oidcRequiredClaim",
    type: stringListFlag,
    defaultValue: [],
    usage: "key=value pairs every ID token must carry (repeatable).",
  }),
  defineFlag({
    section: "Authentication flags",
    name: "authentication-token-webhook-config-file",
    key: "authenticationTokenWebhookConfigFile",
    type: stringFlag,
    defaultValue: "",
    usage: "kubeconfig-format file of the token review webhook.",
  }),
  defineFlag({
    section: "Authentication flags",
    name: "authentication-token-webhook-cache-ttl",
    key: "authenticationTokenWebhookCacheTtlMs",
    type: durationFlag,
    defaultValue: 120_000,
    usage: "How long webhook token decisions are cached.",
  }),
  defineFlag({
    section: "Authentication flags",
    name: "authentication-token-webhook-version",
    key: "authenticationTokenWebhookVersion",
    type: stringFlag,
    defaultValue: "v1beta1",
    usage: "TokenReview version sent to the webhook: v1 or v1beta1.",
  }),
  defineFlag({
    section: "Authentication flags",
    name: "requestheader-client-ca-file",
    key: "requestheaderClientCaFile",
    type: stringFlag,
    defaultValue: "",
    usage:
      "CA that an authenticating proxy's client certificate must verify against before its headers are trusted. Default: the front-proxy CA in --data-dir (CN front-proxy-client, X-Remote-User/-Group/-Extra-), so front-proxy-client.key there can act as any user, cluster-admin included: keep it 0600 or set this flag.",
  }),
  defineFlag({
    section: "Authentication flags",
    name: "requestheader-allowed-names",
    key: "requestheaderAllowedNames",
    type: stringListFlag,
    defaultValue: [],
    usage: "Common names the proxy's client certificate may have (empty: any).",
  }),
  defineFlag({
    section: "Authentication flags",
    name: "requestheader-username-headers",
    key: "requestheaderUsernameHeaders",
    type: stringListFlag,
    defaultValue: [],
    usage: "Request headers holding the user name, e.g. X-Remote-User.",
  }),
  defineFlag({
    section: "Authentication flags",
    name: "requestheader-group-headers",
    key: "requestheaderGroupHeaders",
    type: stringListFlag,
    defaultValue: [],
    usage: "Request headers holding groups, e.g. X-Remote-Group.",
  }),
  defineFlag({
    section: "Authentication flags",
    name: "requestheader-extra-headers-prefix",
    key: "requestheaderExtraHeadersPrefix",
    type: stringListFlag,
    defaultValue: [],
    usage: "Header prefixes for extra user attributes, e.g. X-Remote-Extra-.",
  }),
  defineFlag({
    section: "Authentication flags",
    name: "proxy-client-cert-file",
    key: "proxyClientCertFile",
    type: stringFlag,
    defaultValue: "",
    usage:
      "Client certificate the aggregator uses to call aggregated API servers, which trust the user it names in request headers; default: one issued by the front-proxy CA in --data-dir.",
  }),
  defineFlag({
    section: "Authentication flags",
    name: "proxy-client-key-file",
    key: "proxyClientKeyFile",
    type: stringFlag,
    defaultValue: "",
    usage: "Private key for --proxy-client-cert-file.",
  }),
  defineFlag({
    section: "Authentication flags",
    name: "authentication-plugin",
    key: "authenticationPlugin",
    type: stringListFlag,
    defaultValue: [],
    usage: "Path of a TypeScript module exporting a custom authenticator (repeatable).",
  }),
  defineFlag({
    section: "Admission flags",
    name: "enable-admission-plugins",
    key: "enableAdmissionPlugins",
    type: stringListFlag,
    defaultValue: [],
    usage:
      "Admission plugins to enable besides the default ones: kube plugin names, or paths of TypeScript modules exporting a custom plugin. The order does not matter.",
  }),
  defineFlag({
    section: "Admission flags",
    name: "disable-admission-plugins",
    key: "disableAdmissionPlugins",
    type: stringListFlag,
    defaultValue: [],
    usage: "Admission plugins to disable, even if on by default. The order does not matter.",
  }),
  defineFlag({
    section: "Admission flags",
    name: "accept-unimplemented-admission-plugins",
    key: "acceptUnimplementedAdmissionPlugins",
    type: stringListFlag,
    defaultValue: [],
    usage:
      "kube admission plugins kubun does not implement that --enable-admission-plugins may name anyway; they do nothing. Without this, naming one there stops start-up.",
  }),
  defineFlag({
    section: "Admission flags",
    name: "admission-control-config-file",
    key: "admissionControlConfigFile",
    type: stringFlag,
    defaultValue: "",
    usage: "AdmissionConfiguration file holding each admission plugin's configuration.",
  }),
  defineFlag({
    section: "Admission flags",
    name: "default-not-ready-toleration-seconds",
    key: "defaultNotReadyTolerationSeconds",
    type: intFlag,
    defaultValue: 300,
    usage: "tolerationSeconds of the not-ready NoExecute toleration DefaultTolerationSeconds gives pods that have none.",
  }),
  defineFlag({
    section: "Admission flags",
    name: "default-unreachable-toleration-seconds",
    key: "defaultUnreachableTolerationSeconds",
    type: intFlag,
    defaultValue: 300,
    usage: "tolerationSeconds of the unreachable NoExecute toleration DefaultTolerationSeconds gives pods that have none.",
  }),
  defineFlag({
    section: "Admission flags",
    name: "admission-plugin-dir",
    key: "admissionPluginDir",
    type: stringFlag,
    defaultValue: "",
    usage: "Directory whose .ts and .js files are all enabled as custom admission plugins.",
  }),
  defineFlag({
    section: "Authorization flags",
    name: "authorization-mode",
    key: "authorizationMode",
    type: stringListFlag,
    defaultValue: ["AlwaysAllow"],
    usage: "Ordered list of authorizers: Node, ABAC, RBAC, Webhook, AlwaysAllow, AlwaysDeny, or a module path of a custom authorizer.",
  }),
  defineFlag({
    section: "Authorization flags",
    name: "authorization-policy-file",
    key: "authorizationPolicyFile",
    type: stringFlag,
    defaultValue: "",
    usage: "File with authorization policy in json line by line format, used with --authorization-mode=ABAC.",
  }),
  defineFlag({
    section: "Authorization flags",
    name: "authorization-webhook-config-file",
    key: "authorizationWebhookConfigFile",
    type: stringFlag,
    defaultValue: "",
    usage: "kubeconfig-format file of the SubjectAccessReview webhook, used with --authorization-mode=Webhook.",
  }),
  defineFlag({
    section: "Authorization flags",
    name: "authorization-webhook-version",
    key: "authorizationWebhookVersion",
    type: stringFlag,
    defaultValue: "v1beta1",
    usage: "SubjectAccessReview version sent to the authorization webhook: v1 or v1beta1.",
  }),
  defineFlag({
    section: "Authorization flags",
    name: "authorization-webhook-cache-authorized-ttl",
    key: "authorizationWebhookCacheAuthorizedTtlMs",
    type: durationFlag,
    defaultValue: 300_000,
    usage: "How long 'authorized' answers of the authorization webhook are cached.",
  }),
  defineFlag({
    section: "Authorization flags",
    name: "authorization-webhook-cache-unauthorized-ttl",
    key: "authorizationWebhookCacheUnauthorizedTtlMs",
    type: durationFlag,
    defaultValue: 30_000,
    usage: "How long 'unauthorized' answers of the authorization webhook are cached.",
  }),
  defineFlag({
    section: "Authentication flags",
    name: "client-ca-file",
    key: "clientCaFile",
    type: stringFlag,
    defaultValue: "",
    usage: "CA bundle that client certificates are verified against; if empty, the CA generated in --data-dir.",
  }),
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
  defineFlag({
    section: "Controller flags",
    name: "controllers",
    key: "controllers",
    type: stringListFlag,
    defaultValue: ["*"],
    usage:
      "Controllers to run: '*' enables all on-by-default ones, 'foo' enables foo, '-foo' disables foo (bootstrapsigner and tokencleaner are off by default).",
  }),
  defineFlag({
    section: "Controller flags",
    name: "cluster-signing-cert-file",
    key: "clusterSigningCertFile",
    type: stringFlag,
    defaultValue: "",
    usage:
      "PEM CA certificate the csrsigning controller issues kubernetes.io/* certificates with; if empty, the CA generated in --data-dir.",
  }),
  defineFlag({
    section: "Controller flags",
    name: "cluster-signing-key-file",
    key: "clusterSigningKeyFile",
    type: stringFlag,
    defaultValue: "",
    usage: "PEM private key (PKCS#8, ECDSA P-256 or RSA) of --cluster-signing-cert-file.",
  }),
  defineFlag({
    section: "Controller flags",
    name: "cluster-signing-duration",
    key: "clusterSigningDurationMs",
    type: durationFlag,
    defaultValue: 8760 * 3_600_000,
    usage:
      "The max length of duration signed certificates will be given. Individual CSRs may request shorter certs by setting spec.expirationSeconds.",
  }),
  defineFlag({
    section: "Controller flags",
    name: "simulated-nodes",
    key: "simulatedNodes",
    type: intFlag,
    defaultValue: 0,
    usage:
      "Register this many Ready nodes (sim-0, sim-1, ...) whose pods are marked Running and Ready and whose Job pods succeed, without containers (KWOK-style).",
  }),
  defineFlag({
    section: "Controller flags",
    name: "node-monitor-period",
    key: "nodeMonitorPeriodMs",
    type: durationFlag,
    defaultValue: 5_000,
    usage: "How often the node lifecycle controller checks node health.",
  }),
  defineFlag({
    section: "Controller flags",
    name: "node-monitor-grace-period",
    key: "nodeMonitorGracePeriodMs",
    type: durationFlag,
    defaultValue: 40_000,
    usage: "How long a node may go without a status heartbeat or Lease renewal before its conditions turn Unknown.",
  }),
  defineFlag({
    section: "Controller flags",
    name: "node-startup-grace-period",
    key: "nodeStartupGracePeriodMs",
    type: durationFlag,
    defaultValue: 60_000,
    usage: "How long a node whose kubelet never reported may exist before its conditions turn Unknown.",
  }),
  defineFlag({
    section: "Controller flags",
    name: "cronjob-clock-rate",
    key: "cronjobClockRate",
    type: intFlag,
    defaultValue: 1,
    hidden: true,
    usage:
      "Run the CronJob controller's clock this many times faster than real time (for tests: 60 makes each minute of a schedule pass in a second).",
  }),
  defineFlag({
    section: "Leader-election flags",
    name: "leader-elect",
    key: "leaderElect",
    type: boolFlag,
    defaultValue: true,
    usage:
      "Take a Lease (kube-system/kubun-controller-manager) before running the controllers, so servers sharing a store run each loop once.",
  }),
  defineFlag({
    section: "Leader-election flags",
    name: "leader-elect-lease-duration",
    key: "leaderElectLeaseDurationMs",
    type: durationFlag,
    defaultValue: 15_000,
    usage: "How long a candidate waits after the last renewal before taking the lease.",
  }),
  defineFlag({
    section: "Leader-election flags",
    name: "leader-elect-renew-deadline",
    key: "leaderElectRenewDeadlineMs",
    type: durationFlag,
    defaultValue: 10_000,
    usage: "How long the leader keeps trying to renew before it stops leading.",
  }),
  defineFlag({
    section: "Leader-election flags",
    name: "leader-elect-retry-period",
    key: "leaderElectRetryPeriodMs",
    type: durationFlag,
    defaultValue: 2_000,
    usage: "How often candidates try to acquire or renew the lease.",
  }),
  defineFlag({
    section: "Audit flags",
    name: "audit-policy-file",
    key: "auditPolicyFile",
    type: stringFlag,
    defaultValue: "",
    usage: "Path to the file that defines the audit policy configuration.",
  }),
  defineFlag({
    section: "Audit flags",
    name: "audit-log-path",
    key: "auditLogPath",
    type: stringFlag,
    defaultValue: "",
    usage: "If set, all requests coming to the apiserver will be logged to this file.  '-' means standard out.",
  }),
  defineFlag({
    section: "Audit flags",
    name: "audit-log-format",
    key: "auditLogFormat",
    type: stringFlag,
    defaultValue: "json",
    usage:
      'Format of saved audits. "legacy" indicates 1-line text format for each event. "json" indicates structured json format. Known formats are legacy,json.',
  }),
  defineFlag({
    section: "Audit flags",
    name: "audit-log-maxage",
    key: "auditLogMaxage",
    type: intFlag,
    defaultValue: 0,
    usage: "The maximum number of days to retain old audit log files based on the timestamp encoded in their filename.",
  }),
  defineFlag({
    section: "Audit flags",
    name: "audit-log-maxbackup",
    key: "auditLogMaxbackup",
    type: intFlag,
    defaultValue: 0,
    usage: "The maximum number of old audit log files to retain.",
  }),
  defineFlag({
    section: "Audit flags",
    name: "audit-log-maxsize",
    key: "auditLogMaxsize",
    type: intFlag,
    defaultValue: 0,
    usage: "The maximum size in megabytes of the audit log file before it gets rotated.",
  }),
  defineFlag({
    section: "Audit flags",
    name: "audit-log-compress",
    key: "auditLogCompress",
    type: boolFlag,
    defaultValue: false,
    usage: "If set, the rotated log files will be compressed using gzip.",
  }),
  defineFlag({
    section: "Audit flags",
    name: "audit-log-mode",
    key: "auditLogMode",
    type: stringFlag,
    defaultValue: "blocking",
    usage:
      "Strategy for sending audit events. Blocking indicates sending events should block server responses. Batch causes the backend to buffer and write events asynchronously. Known modes are batch,blocking,blocking-strict.",
  }),
  defineFlag({
    section: "Audit flags",
    name: "audit-log-batch-buffer-size",
    key: "auditLogBatchBufferSize",
    type: intFlag,
    defaultValue: 10000,
    usage: "The size of the buffer to store events before batching and writing. Only used in batch mode.",
  }),
  defineFlag({
    section: "Audit flags",
    name: "audit-log-batch-max-size",
    key: "auditLogBatchMaxSize",
    type: intFlag,
    defaultValue: 1,
    usage: "The maximum size of a batch. Only used in batch mode.",
  }),
  defineFlag({
    section: "Audit flags",
    name: "audit-log-batch-max-wait",
    key: "auditLogBatchMaxWaitMs",
    type: durationFlag,
    defaultValue: 0,
    usage: "The amount of time to wait before force writing the batch that hadn't reached the max size. Only used in batch mode.",
  }),
  defineFlag({
    section: "Audit flags",
    name: "audit-log-batch-throttle-enable",
    key: "auditLogBatchThrottleEnable",
    type: boolFlag,
    defaultValue: false,
    usage: "Whether batching throttling is enabled. Only used in batch mode.",
  }),
  defineFlag({
    section: "Audit flags",
    name: "audit-log-batch-throttle-qps",
    key: "auditLogBatchThrottleQps",
    type: float32Flag,
    defaultValue: 0,
    usage: "Maximum average number of batches per second. Only used in batch mode.",
  }),
  defineFlag({
    section: "Audit flags",
    name: "audit-log-batch-throttle-burst",
    key: "auditLogBatchThrottleBurst",
    type: intFlag,
    defaultValue: 0,
    usage: "Maximum number of requests sent at the same moment if ThrottleQPS was not utilized before. Only used in batch mode.",
  }),
  defineFlag({
    section: "Audit flags",
    name: "audit-webhook-config-file",
    key: "auditWebhookConfigFile",
    type: stringFlag,
    defaultValue: "",
    usage: "Path to a kubeconfig formatted file that defines the audit webhook configuration.",
  }),
  defineFlag({
    section: "Audit flags",
    name: "audit-webhook-initial-backoff",
    key: "auditWebhookInitialBackoffMs",
    type: durationFlag,
    defaultValue: 10_000,
    usage: "The amount of time to wait before retrying the first failed request.",
  }),
  defineFlag({
    section: "Audit flags",
    name: "audit-webhook-mode",
    key: "auditWebhookMode",
    type: stringFlag,
    defaultValue: "batch",
    usage:
      "Strategy for sending audit events. Blocking indicates sending events should block server responses. Batch causes the backend to buffer and write events asynchronously. Known modes are batch,blocking,blocking-strict.",
  }),
  defineFlag({
    section: "Audit flags",
    name: "audit-webhook-batch-buffer-size",
    key: "auditWebhookBatchBufferSize",
    type: intFlag,
    defaultValue: 10000,
    usage: "The size of the buffer to store events before batching and writing. Only used in batch mode.",
  }),
  defineFlag({
    section: "Audit flags",
    name: "audit-webhook-batch-max-size",
    key: "auditWebhookBatchMaxSize",
    type: intFlag,
    defaultValue: 400,
    usage: "The maximum size of a batch. Only used in batch mode.",
  }),
  defineFlag({
    section: "Audit flags",
    name: "audit-webhook-batch-max-wait",
    key: "auditWebhookBatchMaxWaitMs",
    type: durationFlag,
    defaultValue: 30_000,
    usage: "The amount of time to wait before force writing the batch that hadn't reached the max size. Only used in batch mode.",
  }),
  defineFlag({
    section: "Audit flags",
    name: "audit-webhook-batch-throttle-enable",
    key: "auditWebhookBatchThrottleEnable",
    type: boolFlag,
    defaultValue: true,
    usage: "Whether batching throttling is enabled. Only used in batch mode.",
  }),
  defineFlag({
    section: "Audit flags",
    name: "audit-webhook-batch-throttle-qps",
    key: "auditWebhookBatchThrottleQps",
    type: float32Flag,
    defaultValue: 10,
    usage: "Maximum average number of batches per second. Only used in batch mode.",
  }),
  defineFlag({
    section: "Audit flags",
    name: "audit-webhook-batch-throttle-burst",
    key: "auditWebhookBatchThrottleBurst",
    type: intFlag,
    defaultValue: 15,
    usage: "Maximum number of requests sent at the same moment if ThrottleQPS was not utilized before. Only used in batch mode.",
  }),
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

/** Rejected command-line input; the message reads like cobra's ("unknown flag: --foo"). */
export class FlagError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "FlagError";
  }
}

function defaultConfig(): ServerConfig {
  return Object.fromEntries(FLAGS.map((flag) => [flag.key, flag.defaultValue])) as unknown as ServerConfig;
}

export function parseFlags(argv: string[], env: Record<string, string | undefined> = {}): ServerConfig {
  const fromCommandLine = readCommandLine(argv);
  const fromEnv = readEnv(env);
  const configPath = fromCommandLine.get("config") ?? fromEnv.get("config");
  const fromFile = configPath ? readConfigFile(configPath) : new Map<string, string>();
  for (const name of fromFile.keys()) {
    if (name === "config" || !findFlag(name)) throw new FlagError(`unknown flag in config file ${configPath}: ${name}`);
  }
  const config = defaultConfig() as unknown as Record<string, unknown>;
  for (const source of [fromFile, fromEnv, fromCommandLine]) {
    for (const [name, text] of source) {
      const flag = findFlag(name)!;
      config[flag.key] = parseValue(flag, text);
    }
  }
  return config as unknown as ServerConfig;
}

function readCommandLine(argv: string[]): Map<string, string> {
  const values = new Map<string, string>();
  const positional: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--") {
      positional.push(...argv.slice(i + 1));
      break;
    }
    if (!arg.startsWith("-") || arg === "-") {
      positional.push(arg);
      continue;
    }
    const { flag, inlineValue } = lookUpArgument(arg);
    let value: string;
    if (inlineValue !== undefined) value = inlineValue;
    else if (flag.type.isBoolean) value = "true";
    else if (i + 1 < argv.length) value = argv[++i]!;
    else throw new FlagError(`flag needs an argument: ${arg}`);
    const earlier = values.get(flag.name);
    values.set(flag.name, flag.type.isList && earlier !== undefined ? `${earlier},${value}` : value);
  }
  if (positional.length > 0) throw new FlagError(`"kubun" does not take any arguments, got ${JSON.stringify(positional)}`);
  return values;
}

function lookUpArgument(arg: string): { flag: FlagSpec; inlineValue?: string } {
  if (arg.startsWith("--")) {
    const equals = arg.indexOf("=");
    const name = equals === -1 ? arg.slice(2) : arg.slice(2, equals);
    const flag = findFlag(name);
    if (!flag) throw new FlagError(`unknown flag: --${name}`);
    return { flag, inlineValue: equals === -1 ? undefined : arg.slice(equals + 1) };
  }
  const letter = arg[1]!;
  const flag = FLAGS.find((candidate) => candidate.shorthand === letter);
  if (!flag) throw new FlagError(`unknown shorthand flag: '${letter}' in ${arg}`);
  const rest = arg.slice(2);
  return { flag, inlineValue: rest === "" ? undefined : rest.replace(/^=/, "") };
}

function readEnv(env: Record<string, string | undefined>): Map<string, string> {
  const values = new Map<string, string>();
  for (const flag of FLAGS) {
    const value = env[envVarName(flag.name)];
    if (value !== undefined && value !== "") values.set(flag.name, value);
  }
  return values;
}

function envVarName(flagName: string): string {
  return `KUBUN_${flagName.toUpperCase().replaceAll("-", "_")}`;
}

function findFlag(name: string): FlagSpec | undefined {
  return FLAGS.find((flag) => flag.name === name);
}

function parseValue(flag: FlagSpec, text: string): unknown {
  try {
    return flag.type.parse(text);
  } catch (error) {
    throw new FlagError(`invalid argument ${JSON.stringify(text)} for "--${flag.name}" flag: ${(error as Error).message}`);
  }
}

/** Usage text laid out as kube-apiserver's (cobra + pflag): sections, aligned columns, non-zero defaults. */
export function helpText(): string {
  const columns = FLAGS.filter((flag) => !flag.hidden).map((flag) => ({ flag, left: flagColumn(flag) }));
  const width = Math.max(...columns.map((column) => column.left.length));
  const sections = [...new Set(FLAGS.map((flag) => flag.section))].map((section) => {
    const lines = columns
      .filter((column) => column.flag.section === section)
      .map(({ flag, left }) => `${left.padEnd(width)}   ${flag.usage}${defaultSuffix(flag)}`);
    return `${section}:\n\n${lines.join("\n")}\n`;
  });
  return [
    "kubun serves the Kubernetes API (kube-apiserver 1.26) from one process, with its state in SQLite.",
    `Every flag can also be set through the environment as KUBUN_<FLAG_NAME>, e.g. ${envVarName("secure-port")}.`,
    "",
    "Usage:\n  kubun [flags]\n",
    ...sections,
  ].join("\n");
}

function flagColumn(flag: FlagSpec): string {
  const names = flag.shorthand ? `  -${flag.shorthand}, --${flag.name}` : `      --${flag.name}`;
  return flag.type.name ? `${names} ${flag.type.name}` : names;
}

function defaultSuffix(flag: FlagSpec): string {
  const text = (flag.type as FlagType<unknown>).format(flag.defaultValue);
  if (text === "" || text === "false" || text === "0" || text === "0s" || text === "[]") return "";
  return flag.type.name === "string" ? ` (default ${JSON.stringify(text)})` : ` (default ${text})`;
}
