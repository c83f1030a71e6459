/** Builds the ordered authorizer union from --authorization-mode (built-in names or module paths). */
import { type Authorizer, unionAuthorizer } from "./authorizer.ts";
import type { PluginContext } from "./plugin-context.ts";
import type { ServerConfig } from "../config/mod.ts";

export type AuthorizerFactory = (context: PluginContext) => Authorizer | Promise<Authorizer>;

export async function buildAuthorization(factories: AuthorizerFactory[], context: PluginContext): Promise<Authorizer> {
  return unionAuthorizer(await Promise.all(factories.map((factory) => factory(context))));
}

/** kube turns anonymous access off when AlwaysAllow is among the modes: it would let everyone do everything. */
export function anonymousEnabled(config: ServerConfig): boolean {
  return config.anonymousAuth && !config.authorizationMode.includes("AlwaysAllow");
}
