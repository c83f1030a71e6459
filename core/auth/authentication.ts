/**
 * Builds the server's authentication from plugin factories, in kube's order: request authenticators (front
 * proxy, client certificates, custom ones) first, then one bearer-token step over every token authenticator.
 */
import {
  type Authenticator,
  bearerTokenAuthenticator,
  type TokenAuthenticator,
  unionAuthenticator,
  unionTokenAuthenticator,
} from "./authenticator.ts";
import type { PluginContext } from "./plugin-context.ts";
import type { ServerConfig } from "../config/mod.ts";

export type AuthenticatorPlugin = Authenticator | TokenAuthenticator;
export type AuthenticatorFactory = (context: PluginContext) => AuthenticatorPlugin | Promise<AuthenticatorPlugin>;

/** A built-in authenticator: on when its flags are set. */
export interface AuthenticatorEntry {
  name: string;
  enabled(config: ServerConfig): boolean;
  load(): Promise<AuthenticatorFactory>;
}

export interface Authentication {
  /** Authenticates a whole request. */
  request: Authenticator;
  /** Every token authenticator, for TokenReview. */
  tokens: TokenAuthenticator;
  /** The audiences the server's own tokens are for (apiAudiences), TokenReview's default. */
  audiences: string[];
}

function isTokenAuthenticator(plugin: AuthenticatorPlugin): plugin is TokenAuthenticator {
  return typeof (plugin as TokenAuthenticator).authenticateToken === "function";
}

/** The audiences tokens must be for: --api-audiences, else the service account issuers (kube's default). */
export function apiAudiences(config: ServerConfig): string[] {
  return config.apiAudiences.length > 0 ? config.apiAudiences : config.serviceAccountIssuer;
}

export async function buildAuthentication(factories: AuthenticatorFactory[], context: PluginContext): Promise<Authentication> {
  const requestAuthenticators: Authenticator[] = [];
  const tokenAuthenticators: TokenAuthenticator[] = [];
  for (const factory of factories) {
    const plugin = await factory(context);
    if (isTokenAuthenticator(plugin)) tokenAuthenticators.push(plugin);
    else requestAuthenticators.push(plugin);
  }
  const tokens = unionTokenAuthenticator(tokenAuthenticators);
  const audiences = apiAudiences(context.config);
  return { request: unionAuthenticator([...requestAuthenticators, bearerTokenAuthenticator(tokens, audiences)]), tokens, audiences };
}
