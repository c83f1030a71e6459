/** kube-controller-manager's flags for the control loops kubun runs in-process, and leader election. */
import { boolFlag, durationFlag, intFlag, stringFlag, stringListFlag } from "./flag-types.ts";
import { defineFlag, type FlagSpec } from "./_flag-spec.ts";

export const CONTROLLER_FLAGS: readonly FlagSpec[] = [
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
    name: "controller-plugin",
    key: "controllerPlugin",
    type: stringListFlag,
    defaultValue: [],
    usage:
      "Path of a TypeScript module exporting a controller plugin (repeatable); it runs as the service account kube-system/<its name>, which the operator binds to the roles it needs.",
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
];
