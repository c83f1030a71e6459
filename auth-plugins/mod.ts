/**
 * The catalog of built-in authenticators, in kube-apiserver's order (front proxy, client certificates, then
 * token authenticators), each switched on by its flags. Literal import() calls so the binary bundles them.
 */
import type { AuthenticatorEntry } from "../core/auth/authentication.ts";
import type { AuthorizerFactory } from "../core/auth/authorization.ts";
import type { Catalog } from "../plugins/loader.ts";

export const AUTHENTICATORS: AuthenticatorEntry[] = [
  { name: "x509", enabled: () => true, load: async () => (await import("./authn/x509/mod.ts")).default },
];

/** Authorizers by their --authorization-mode names. */
export const AUTHORIZERS: Catalog<AuthorizerFactory> = {
  AlwaysAllow: () => import("./authz/always-allow/mod.ts"),
  AlwaysDeny: () => import("./authz/always-deny/mod.ts"),
};
