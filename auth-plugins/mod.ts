/**
 * The catalog of built-in authenticators, in kube-apiserver's order (front proxy, client certificates, then
 * token authenticators), each switched on by its flags. Literal import() calls so the binary bundles them.
 */
import type { AuthenticatorEntry } from "../core/auth/authentication.ts";

export const AUTHENTICATORS: AuthenticatorEntry[] = [
  { name: "x509", enabled: () => true, load: async () => (await import("./authn/x509/mod.ts")).default },
];
