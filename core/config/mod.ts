/** Reading the server's configuration files: valibot schemas, kube's field-path errors, kubeconfig files. */
export { ConfigFileError, duplicate, invalid, parseConfig } from "./validate.ts";
export { type Kubeconfig, type KubeconfigUser, material, readKubeconfig, readReferencedFile } from "./kubeconfig.ts";
export type { AuditOptions, ServerConfig } from "./server-config.ts";
