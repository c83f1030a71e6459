/** kube-apiserver's admission flags. */
import { intFlag, stringFlag, stringListFlag } from "./flag-types.ts";
import { defineFlag, type FlagSpec } from "./_flag-spec.ts";

export const ADMISSION_FLAGS: readonly FlagSpec[] = [
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
];
