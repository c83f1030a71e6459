/**
 * The types a plugin author imports. A plugin module default-exports a factory; the server calls it once at
 * start with a PluginContext (flags, a read-only client, a logger).
 */
import type { AuthenticatorFactory } from "../core/auth/authentication.ts";
import type { AuthorizerFactory } from "../core/auth/authorization.ts";
import type { KmsPluginFactory } from "../core/storage/encryption/mod.ts";

export type { Authentication, AuthenticationRequest, Authenticator, TokenAuthenticator } from "../core/auth/authenticator.ts";
export type { PluginContext, PluginLogger } from "../core/auth/plugin-context.ts";
export type { ObjectReference, ReadOnlyClient } from "../core/api/client.ts";
export type { CollectionEvent, CollectionFollow } from "../core/api/client.ts";
export type { UserInfo } from "../core/auth/user.ts";
export type { KubeObject } from "../core/api/types.ts";

/** An authenticator looks at the whole request (headers, client certificate) or only at bearer tokens. */
export type { AuthenticatorFactory, AuthenticatorPlugin } from "../core/auth/authentication.ts";
/** Makes a token authenticator that ignores audiences answer only for the server's own (kube's WrapAudienceAgnosticToken). */
export { audienceAgnostic } from "../core/auth/audience-agnostic.ts";
export { apiAudiences } from "../core/auth/authentication.ts";

export type { AuthorizerFactory } from "../core/auth/authorization.ts";
export type { Attributes, AuthorizationResult, Authorizer, Decision, UserRules } from "../core/auth/authorizer.ts";
export type { PolicyRule } from "../core/auth/rbac/policy-types.ts";

/** Identity function that gives an authorizer module's default export its type. */
export function defineAuthorizer(factory: AuthorizerFactory): AuthorizerFactory {
  return factory;
}

/** Identity function that gives a plugin's default export its type. */
export function defineAuthenticator(factory: AuthenticatorFactory): AuthenticatorFactory {
  return factory;
}

/**
 * Admission plugins: `export default defineAdmissionPlugin({ name, handles, admit?, validate? })` with typed
 * kinds, allow/deny/warn and the fixture kit (README, "Writing policies"); the same files `kubun sdk init` writes.
 */
export * from "../core/admission/sdk/mod.ts";
export { StatusError } from "../core/api/errors.ts";
/** Validating a plugin's configuration section: a ConfigFileError thrown by the factory stops start-up naming the file and field. */
export { ConfigFileError, parseConfig } from "../core/config/mod.ts";

/** KMS providers as modules (README, "Encryption at rest"): `endpoint: module:///abs/path.ts` in the EncryptionConfiguration. */
export type { KmsPlugin, KmsPluginFactory } from "../core/storage/encryption/mod.ts";

/** Identity function that gives a KMS plugin module's default export its type. */
export function defineKmsPlugin(factory: KmsPluginFactory): KmsPluginFactory {
  return factory;
}
