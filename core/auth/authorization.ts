/** Builds the ordered authorizer union from --authorization-mode (built-in names or module paths). */
import { type AuthorizationResult, type Authorizer, unionAuthorizer } from "./authorizer.ts";
import type { PluginContext } from "./plugin-context.ts";
import type { ServerConfig } from "../config/mod.ts";

export type AuthorizerFactory = (context: PluginContext) => Authorizer | Promise<Authorizer>;

/** kube's user.SystemPrivilegedGroup. */
const PRIVILEGED_GROUP = "system:masters";
/** The privileged group's decision, shared by its requests (read only). */
const PRIVILEGED_ALLOWED: AuthorizationResult = Object.freeze({ decision: "Allow" });

/**
 * kube 1.26's generic server Config.Complete calls AuthorizeClientBearerToken, which puts
 * authorizerfactory.NewPrivilegedGroups(system:masters) in a union before the modes' authorizer (1.26's authorizer
 * Config.New builds only the named modes), so that group is allowed whatever the modes are; it is no rule resolver,
 * so rule listings are the modes' alone.
 */
export async function buildAuthorization(factories: AuthorizerFactory[], context: PluginContext): Promise<Authorizer> {
  const modes = unionAuthorizer(await Promise.all(factories.map((factory) => factory(context))));
  return {
    authorize: (attributes) => attributes.user.groups.includes(PRIVILEGED_GROUP) ? PRIVILEGED_ALLOWED : modes.authorize(attributes),
    rulesFor: modes.rulesFor,
  };
}

/** kube turns anonymous access off when AlwaysAllow is among the modes: it would let everyone do everything. */
export function anonymousEnabled(config: ServerConfig): boolean {
  return config.anonymousAuth && !config.authorizationMode.includes("AlwaysAllow");
}
