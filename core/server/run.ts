/**
 * Starts kubun from a parsed configuration: data directory, certificates, storage, watch broker,
 * compactor, the app and the HTTPS listener; stop() undoes it in reverse, kube's graceful way
 * (readyz fails first, then running requests finish, then storage closes).
 */
import { readFile } from "node:fs/promises";
import process from "node:process";
import { join } from "node:path";
import { type AuthenticatorFactory, buildAuthentication } from "../auth/authentication.ts";
import { anonymousEnabled, type AuthorizerFactory, buildAuthorization } from "../auth/authorization.ts";
import type { Authorizer } from "../auth/authorizer.ts";
import { pluginLogger } from "../auth/plugin-context.ts";
import { readOnlyClient } from "../registry/read-only-client.ts";
import { ensureSystemNamespaces } from "../controllers/mod.ts";
import { BUILT_IN_CONTROLLERS } from "../controllers/mod.ts";
import { keepKubernetesService, type KubernetesServiceKeeper } from "../controllers/mod.ts";
import { buildPluginControllers, type ControllerPluginFactory } from "../controllers/plugin/mod.ts";
import { installServiceAllocation } from "../registry/service-allocation/mod.ts";
import { formatIPv4 } from "../registry/service-allocation/mod.ts";
import { checkControllerFlag, type RunningControllers, startControllers } from "../controllers/mod.ts";
import { controllerActor, isControllerEnabled } from "../controllers/runtime/mod.ts";
import { ensureClusterInfo } from "../controllers/bootstrap-tokens/mod.ts";
import { type ApiServerIdentity, startApiServerIdentity, startClusterRoleAggregation } from "../controllers/mod.ts";
import { hostname } from "node:os";
import { startCustomResources } from "../crd/mod.ts";
import { ensureBootstrapPolicy } from "../controllers/mod.ts";
import { clientRoleReader, registerEscalationGuards } from "../registry/rbac-escalation.ts";
import { checkRequestLimitFlags, startRequestLimits } from "./request-limits.ts";
import { accessReviewHandlers } from "./handlers/access-review.ts";
import { builtInCatalog } from "../registry/catalog.ts";
import { disabledBuiltIns } from "../registry/api-enablement.ts";
import { Registry } from "../registry/registry.ts";
import { listenHttps } from "../runtime/listener.ts";
import { startMemoryRelease } from "../runtime/memory-release.ts";
import { adaptiveJITPolicy, type JITPolicy } from "../runtime/jit-policy.ts";
import { startTtlExpiry } from "../storage/ttl-expiry.ts";
import { collectionPrefix } from "../registry/keys.ts";
import { moveOldEventsV1Keys } from "../registry/events-v1-move.ts";
import { encryptionConfigSource, encryptionMetrics, type KmsPluginImporter } from "../storage/encryption/mod.ts";
import { checkEtcdFlags, openStorageBackend } from "./storage-backend.ts";
import { commitBatchRecorder } from "../storage/sqlite/mod.ts";
import { WatchBroker } from "../watch/mod.ts";
import { createApp } from "./app.ts";
import { loadDescriptions } from "./openapi-descriptions.ts";
import { buildAuditing } from "../audit/mod.ts";
import { buildAdmissionChain, type LoadedAdmissionPlugin } from "../admission/build.ts";
import { readAdmissionConfiguration } from "../admission/config-file.ts";
import { violationEventRecorder } from "./violation-events.ts";
import type { ServerConfig } from "../config/mod.ts";
import { acquireStartupLock, checkDatabaseBesideCertificates, openLeaderLock, preparePrivateDirectory } from "./data-dir.ts";
import { createHealthChecks, storageHealthProbe } from "./health.ts";
import { componentChecks, componentStatusHandlers, storageCheck } from "./handlers/component-statuses.ts";
import { InFlightRequests } from "./filters/shutdown.ts";
import { setTimeout as delay } from "node:timers/promises";
import { featureEnabled, featureGateWarnings } from "./feature-gates.ts";
import { serverUrl, writeKubeconfig } from "./kubeconfig.ts";
import { ApiMetrics, checkShowHiddenMetricsForVersion } from "./metrics.ts";
import { ensureCertificates, ensureFrontProxyCertificates } from "./pki.ts";
import { Aggregator } from "../aggregator/aggregator.ts";
import { proxyClientCertificate } from "./front-proxy.ts";
import { publishAuthenticationTrust } from "../aggregator/authentication-trust.ts";
import { handleTokenReview } from "./handlers/token-review.ts";
import { scaleHandlers } from "./handlers/scale.ts";
import { podBindingHandlers } from "./handlers/pod-binding.ts";
import { podEvictionHandlers } from "./handlers/pod-eviction.ts";
import { podLogHandlers } from "./handlers/pod-log.ts";
import { customScaleHandlers } from "./handlers/custom-scale.ts";
import { podStreamHandlers } from "./handlers/pod-stream.ts";
import { proxyHandlers } from "./handlers/proxy.ts";
import { virtualHandlerKey } from "./virtual-handlers.ts";
import { serviceAccountServing } from "./service-accounts.ts";
import { logger } from "../log/mod.ts";

const serverLog = logger("apiserver");

export interface RunningServer {
  port: number;
  /** Where the admin kubeconfig was written. */
  kubeconfigPath: string;
  /** Idempotent; resolves once storage is closed. */
  stop(): Promise<void>;
}

export interface RunOptions {
  /** Receives the startup line; default writes to stderr. */
  log?: (line: string) => void;
  /** Authenticator factories in chain order (main.ts resolves the built-in catalog and --authentication-plugin paths). */
  authenticators: AuthenticatorFactory[];
  /** Authorizer factories in --authorization-mode order; none means every request is allowed. */
  authorizers?: AuthorizerFactory[];
  /** Admission plugins in chain order (main.ts resolves the admission flags); none means no admission. */
  admissionPlugins?: LoadedAdmissionPlugin[];
  /** --controller-plugin modules' factories; each runs as a controller of its own. */
  controllerPlugins?: ControllerPluginFactory[];
  /** Loads `module://` KMS plugins named in --encryption-provider-config (main.ts hands in plugins/loader.ts's importer). */
  importKmsPlugin?: KmsPluginImporter;
  /** The listener the request chain is served on; default HTTPS on --bind-address (tests serve it in-process). */
  listen?: typeof listenHttps;
}

const ALLOW_ALL: Authorizer = { authorize: () => ({ decision: "Allow" }) };

const WILDCARD_ADDRESSES = new Set(["0.0.0.0", "::", ""]);

/** Checked every 2 s (an idle server gives a burst's memory back within two checks); a full collection once the process
 * grew by 32 MiB, or by half its size, since the last (runtime/memory-release.ts). */
const MEMORY_RELEASE = { intervalMs: 2_000, growthBytes: 32 * 2 ** 20 };

export async function runServer(config: ServerConfig, options: RunOptions): Promise<RunningServer> {
  const log = options.log ?? ((line: string) => serverLog.info(line));
  checkControllerFlag(config.controllers);
  checkRequestLimitFlags(config);
  checkEtcdFlags(config);
  checkShowHiddenMetricsForVersion(config.showHiddenMetricsForVersion);
  const catalog = builtInCatalog();
  // The one decision on what is served: disabled built-ins leave the catalog, so discovery, OpenAPI and routing drop them.
  const disabled = disabledBuiltIns(catalog.all(), config.runtimeConfig);
  // kubun's own bootstrap (namespaces, the kubernetes Service, service accounts, ...) writes core objects.
  if (disabled.some((type) => type.group === "")) throw new Error("--runtime-config: kubun cannot run with core v1 resources turned off");
  for (const type of disabled) catalog.remove(type.group, type.version, type.resource);
  for (const warning of featureGateWarnings(config.featureGates)) log(warning);
  const pluginControllers = await buildPluginControllers(options.controllerPlugins ?? [], config);
  const auditing = await buildAuditing(config, log);
  const openApiDescriptions = loadDescriptions(config.openapiDescriptions);
  await preparePrivateDirectory(config.dataDir, log);
  // Held until the bootstrap objects exist: processes starting together take turns.
  const startupLock = await acquireStartupLock(config.dataDir);
  // On etcd the data directory holds no database: its objects are in etcd.
  if (config.etcdServers.length === 0) await checkDatabaseBesideCertificates(config.dataDir);
  const metrics = new ApiMetrics();
  const encryption = config.encryptionProviderConfig
    ? await encryptionConfigSource(config.encryptionProviderConfig, {
      reload: config.encryptionProviderConfigAutomaticReload,
      metrics: encryptionMetrics(metrics.registry),
      log,
      importKmsPlugin: options.importKmsPlugin,
    })
    : undefined;
  // Before any PKI file is written: opening the store takes the data directory (data-dir.ts openDataDirStore), so a
  // process refused because another one serves from it leaves that one's certificates and keys alone.
  const backend = await openStorageBackend(config, encryption, log, { onCommit: commitBatchRecorder(metrics.registry) });
  const storage = backend.storage;
  const { pki, clusterSigning, serving, clientCA, frontProxy, requestHeaderCA } = await loadCertificates(config).catch(
    async (error: unknown) => {
      startupLock.release();
      await backend.stop();
      await storage.close();
      throw error;
    },
  );

  // Before anything reads Events: events.k8s.io Events an older kubun kept apart join the core collection.
  await moveOldEventsV1Keys(storage);
  const broker = new WatchBroker(storage);
  // Assigned once serving (memory-release may call back before that), so not a const.
  // deno-lint-ignore prefer-const
  let jitPolicy: JITPolicy | undefined;
  // After a burst, code waits for load again before the JIT compiles it (runtime/jit-policy.ts), and the store
  // gives its page cache back.
  const memoryRelease = startMemoryRelease({
    ...MEMORY_RELEASE,
    onIdleRelease: () => {
      jitPolicy?.idle();
      backend.releaseMemory();
    },
  });
  const health = createHealthChecks(storage, config.livezGracePeriodMs);
  const inFlight = new InFlightRequests();
  for (const { name, check } of encryption?.healthChecks() ?? []) health.add(name, check);
  const registry = new Registry(storage, broker);
  // kube stores Events under an etcd lease of --event-ttl; events.k8s.io Events are core Events (keys.ts).
  const eventExpiry = startTtlExpiry(storage, [collectionPrefix(catalog.byGroupVersionResource("", "v1", "events")!, "")], {
    ttlMs: config.eventTtlMs,
  });
  await ensureSystemNamespaces(registry, catalog);
  const serviceAllocation = await installServiceAllocation(registry, storage, catalog.byGroupVersionResource("", "v1", "services")!, {
    clusterIPRange: config.serviceClusterIpRange,
    nodePortRange: config.serviceNodePortRange,
    soleWriter: backend.soleWriter,
  });
  if (config.authorizationMode.includes("RBAC")) await ensureBootstrapPolicy(registry, catalog);
  const authenticationTrust = await publishAuthenticationTrust(registry, catalog, {
    clientCA,
    requestHeaderCA: requestHeaderCA ?? "",
    requestHeaderAllowedNames: config.requestheaderAllowedNames,
    requestHeaderUsernameHeaders: config.requestheaderUsernameHeaders,
    requestHeaderGroupHeaders: config.requestheaderGroupHeaders,
    requestHeaderExtraHeadersPrefix: config.requestheaderExtraHeadersPrefix,
  });
  const pluginContext = { config, client: readOnlyClient(registry, catalog), log: pluginLogger("authentication") };
  // Before the authenticators: this creates the signing key the service account authenticator reads.
  const serviceAccounts = await serviceAccountServing(config, pluginContext.client);
  const authentication = await buildAuthentication(options.authenticators, pluginContext);
  const authorizer = options.authorizers ? await buildAuthorization(options.authorizers, pluginContext) : ALLOW_ALL;
  registerEscalationGuards(registry.writeGuards, authorizer, clientRoleReader(pluginContext.client));
  const clusterRoleAggregation = await startClusterRoleAggregation(
    registry.as(controllerActor("clusterrole-aggregation", authorizer)),
    catalog,
  );
  const admissionSections = await readAdmissionConfiguration(config.admissionControlConfigFile);
  const admission = await buildAdmissionChain(options.admissionPlugins ?? [], {
    config,
    registry,
    catalog,
    client: pluginContext.client,
    sections: admissionSections,
    onViolation: violationEventRecorder(registry, catalog, pluginLogger("admission")),
    metricsRegistry: metrics.registry,
    authorizer,
  });
  registry.admission = admission;
  const proxyClient = await proxyClientCertificate(config, frontProxy.client);
  const aggregator = await Aggregator.start(registry, catalog, { proxyClient });
  const virtualHandlers = new Map([
    ...serviceAccounts.handlers,
    [virtualHandlerKey("authentication.k8s.io", "tokenreviews"), handleTokenReview],
    ...scaleHandlers(catalog.all()),
    ...componentStatusHandlers(componentChecks(config.controllers, storageCheck(storageHealthProbe(storage)))),
    ...accessReviewHandlers(),
    ...podBindingHandlers(registry.store(catalog.byGroupVersionResource("", "v1", "pods")!)),
    ...podStreamHandlers(pluginContext.client),
    ...podLogHandlers(pluginContext.client),
    ...podEvictionHandlers(registry.store(catalog.byGroupVersionResource("policy", "v1", "poddisruptionbudgets")!)),
    ...proxyHandlers(pluginContext.client, proxyClient),
  ]);
  const customResources = await startCustomResources(registry, catalog, { scaleSubresources: customScaleHandlers(virtualHandlers) });
  // kube builds APF only when --enable-priority-and-fairness and the APIPriorityAndFairness gate are both on.
  const priorityAndFairness = config.enablePriorityAndFairness && featureEnabled(config.featureGates, "APIPriorityAndFairness");
  const requestLimits = await startRequestLimits(
    { ...config, enablePriorityAndFairness: priorityAndFairness },
    registry,
    catalog,
    metrics,
    storage,
  );
  startupLock.release();
  const app = createApp({
    storage,
    broker,
    catalog,
    registry,
    metrics,
    health,
    authentication,
    authorizer,
    virtualHandlers,
    schemas: customResources.schemas,
    openApiDescriptions,
    issuerDiscovery: serviceAccounts.discovery,
    aggregator,
    auditing,
    requestLimiter: requestLimits.limiter,
    flowControl: requestLimits.flowControl,
    inFlight,
    options: {
      maxRequestBytes: config.maxRequestBytes,
      anonymous: anonymousEnabled(config),
      requestTimeoutMs: config.requestTimeoutMs,
      minRequestTimeoutSeconds: config.minRequestTimeoutSeconds,
      responseCompression: featureEnabled(config.featureGates, "APIResponseCompression"),
      serverSideFieldValidation: featureEnabled(config.featureGates, "ServerSideFieldValidation"),
      openApiV3: featureEnabled(config.featureGates, "OpenAPIV3"),
      remainingItemCount: featureEnabled(config.featureGates, "RemainingItemCount"),
    },
  });

  // deno-lint-ignore prefer-const -- releaseStorage may run before the controllers start
  let controllers: RunningControllers | undefined;
  // deno-lint-ignore prefer-const -- likewise before the identity lease starts
  let identity: ApiServerIdentity | undefined;
  // deno-lint-ignore prefer-const -- likewise before the kubernetes Service is written
  let kubernetesService: KubernetesServiceKeeper | undefined;
  const releaseStorage = async () => {
    startupLock.release();
    await controllers?.stop();
    identity?.stop();
    kubernetesService?.stop();
    serviceAllocation.stop();
    clusterRoleAggregation.stop();
    authenticationTrust.stop();
    customResources.stop();
    requestLimits.flowControl?.stop();
    admission.close();
    aggregator.stop();
    await backend.stop();
    memoryRelease.stop();
    eventExpiry.stop();
    broker.close();
    await storage.close();
    await auditing?.sink.shutdown();
  };
  const listener = await (options.listen ?? listenHttps)(app, {
    host: config.bindAddress,
    port: config.securePort,
    key: serving.keyPem,
    cert: serving.certPem,
    clientCA,
    requestHeaderCA,
    timeouts: { readHeaderTimeoutMs: config.readHeaderTimeoutMs, idleTimeoutMs: config.idleConnectionTimeoutMs },
    maxConnections: config.maxConnections || undefined,
  }).catch(
    async (error: unknown) => {
      await releaseStorage();
      throw error;
    },
  );
  const url = serverUrl(config.bindAddress, listener.port);
  const kubeconfigPath = join(config.dataDir, "admin.kubeconfig");
  await writeKubeconfig(kubeconfigPath, url, { caPem: pki.caPem, clientCertPem: pki.admin.certPem, clientKeyPem: pki.admin.keyPem });
  kubernetesService = await keepKubernetesService(registry, catalog, {
    clusterIP: formatIPv4(serviceAllocation.ipRange.first),
    address: WILDCARD_ADDRESSES.has(config.bindAddress) ? "127.0.0.1" : config.bindAddress,
    port: listener.port,
  });
  if (isControllerEnabled("bootstrapsigner", config.controllers)) {
    await ensureClusterInfo(registry, catalog, { serverUrl: url, caPem: pki.caPem });
  }
  // kube's identity lease post-start hooks; like kube's they only log when leases are not served.
  identity = featureEnabled(config.featureGates, "APIServerIdentity") &&
      catalog.byGroupVersionResource("coordination.k8s.io", "v1", "leases")
    ? startApiServerIdentity(registry, catalog, { hostname: hostname(), log })
    : undefined;
  controllers = startControllers(registry, catalog, {
    controllers: [...BUILT_IN_CONTROLLERS, ...pluginControllers],
    settings: {
      config,
      caPem: pki.caPem,
      serverUrl: url,
      serviceAccountSigningKey: serviceAccounts.signingKey,
      clusterSigning,
      authorizer,
    },
    log,
    // Processes sharing a SQLite file share a host: a lock elects their leader without a Lease write every retry period.
    leaderLock: config.leaderElect && config.etcdServers.length === 0 ? await openLeaderLock(config.dataDir) : undefined,
  });
  log(`serving the Kubernetes API on ${url} (data dir ${config.dataDir}, admin kubeconfig ${kubeconfigPath})`);
  // Start-up ran in the interpreter; the request path gets the JIT's normal thresholds once requests keep it busy.
  jitPolicy = adaptiveJITPolicy();

  let stopping: Promise<void> | undefined;
  const stop = async () => {
    // kube's ShutdownInitiated: /readyz fails at once while requests are served as usual for --shutdown-delay-duration.
    health.beginShutdown();
    jitPolicy?.stop();
    await delay(config.shutdownDelayDurationMs);
    if (config.shutdownSendRetryAfter) {
      inFlight.refuseNew();
      await inFlight.drained();
    }
    // Ending watches first lets the listener drain: their responses finish like any other request.
    broker.close();
    await listener.close();
    await releaseStorage();
  };
  return { port: listener.port, kubeconfigPath, stop: () => (stopping ??= stop()) };
}

/**
 * On SIGTERM or SIGINT: stop the server, then exit 0 (1 if stopping failed). A second signal exits 1 at once,
 * as kube's SetupSignalHandler does.
 */
export function stopOnSignals(server: RunningServer, exit: (code: number) => void): void {
  let signalled = false;
  const onSignal = () => {
    if (signalled) return exit(1);
    signalled = true;
    server.stop().then(
      () => exit(0),
      (error) => {
        serverLog.error("shutdown failed", error);
        exit(1);
      },
    );
  };
  process.on("SIGTERM", onSignal);
  process.on("SIGINT", onSignal);
}

/** The data directory's PKI (created where missing) and the certificate files the flags name instead. */
async function loadCertificates(config: ServerConfig) {
  const hosts = WILDCARD_ADDRESSES.has(config.bindAddress) ? [] : [config.bindAddress];
  const pki = await ensureCertificates(config.dataDir, { hosts });
  return {
    pki,
    clusterSigning: clusterSigningFiles(config, pki.files),
    serving: await servingKeyPair(config, pki.serving),
    clientCA: config.clientCaFile ? await readFile(config.clientCaFile, "utf8") : pki.caPem,
    frontProxy: await ensureFrontProxyCertificates(config.dataDir),
    requestHeaderCA: config.requestheaderClientCaFile ? await readFile(config.requestheaderClientCaFile, "utf8") : undefined,
  };
}

async function servingKeyPair(
  config: ServerConfig,
  generated: { certPem: string; keyPem: string },
): Promise<{ certPem: string; keyPem: string }> {
  if (!config.tlsCertFile && !config.tlsPrivateKeyFile) return generated;
  if (!config.tlsCertFile || !config.tlsPrivateKeyFile) throw new Error("--tls-cert-file and --tls-private-key-file must be set together");
  return { certPem: await readFile(config.tlsCertFile, "utf8"), keyPem: await readFile(config.tlsPrivateKeyFile, "utf8") };
}

/** kube-controller-manager's --cluster-signing-cert-file/--cluster-signing-key-file, defaulting to the data dir's CA. */
function clusterSigningFiles(config: ServerConfig, files: { caCert: string; caKey: string }): { certFile: string; keyFile: string } {
  if (!config.clusterSigningCertFile && !config.clusterSigningKeyFile) return { certFile: files.caCert, keyFile: files.caKey };
  if (!config.clusterSigningCertFile || !config.clusterSigningKeyFile) {
    throw new Error("--cluster-signing-cert-file and --cluster-signing-key-file must be set together");
  }
  return { certFile: config.clusterSigningCertFile, keyFile: config.clusterSigningKeyFile };
}
