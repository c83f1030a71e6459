/**
 * The catalog of built-in authenticators, in kube-apiserver's order (front proxy, client certificates, then
 * token authenticators), each switched on by its flags. Literal import() calls so the binary bundles them.
 */
import type { AuthenticatorEntry } from "../core/auth/authentication.ts";
import type { AuthorizerFactory } from "../core/auth/authorization.ts";
import type { Catalog } from "../plugins/loader.ts";

export const AUTHENTICATORS: AuthenticatorEntry[] = [
  {
    name: "requestheader",
    enabled: (config) => config.requestheaderClientCaFile !== "",
    load: async () => (await import("./authn/requestheader/mod.ts")).default,
  },
  { name: "x509", enabled: () => true, load: async () => (await import("./authn/x509/mod.ts")).default },
  {
    name: "token-file",
    enabled: (config) => config.tokenAuthFile !== "",
    load: async () => (await import("./authn/token-file/mod.ts")).default,
  },
  {
    name: "bootstrap-token",
    enabled: (config) => config.enableBootstrapTokenAuth,
    load: async () => (await import("./authn/bootstrap-token/mod.ts")).default,
  },
  { name: "service-account", enabled: () => true, load: async () => (await import("./authn/service-account/mod.ts")).default },
  { name: "oidc", enabled: (config) => config.oidcIssuerUrl !== "", load: async () => (await import("./authn/oidc/mod.ts")).default },
  {
    name: "webhook",
    enabled: (config) => config.authenticationTokenWebhookConfigFile !== "",
    load: async () => (await import("./authn/webhook/mod.ts")).default,
  },
];

/** Authorizers by their --authorization-mode names. */
export const AUTHORIZERS: Catalog<AuthorizerFactory> = {
  AlwaysAllow: () => import("./authz/always-allow/mod.ts"),
  AlwaysDeny: () => import("./authz/always-deny/mod.ts"),
  RBAC: () => import("./authz/rbac/mod.ts"),
  ABAC: () => import("./authz/abac/mod.ts"),
  Node: () => import("./authz/node/mod.ts"),
  Webhook: () => import("./authz/webhook/mod.ts"),
};
