/**
 * POST serviceaccounts/<name>/token (kube's pkg/registry/core/serviceaccount/storage/token.go): mints a bound
 * service account token for the account, optionally bound to a Pod or Secret, and answers 201 with the
 * TokenRequest holding status.token and status.expirationTimestamp.
 */
import { type FieldError, newBadRequest, newConflict, newInvalid, newMethodNotSupported, newNotFound } from "../../api/errors.ts";
import type { KubeObject } from "../../api/types.ts";
import type { ReadOnlyClient } from "../../api/client.ts";
import type { ObjectRef } from "../../auth/service-account/claims.ts";
import type { SigningKey } from "../../auth/service-account/keys.ts";
import { signBoundToken } from "../../auth/service-account/sign.ts";
import { newNamespaceParameterRequired } from "../resource-route.ts";
import { respondObject } from "../respond.ts";
import type { Handler, HandlerContext } from "./context.ts";
import { readTokenRequest, TOKEN_REQUEST_API_VERSION, TOKEN_REQUEST_KIND, type TokenRequestBody } from "./token-request-body.ts";

export interface TokenRequestOptions {
  /** The issuer new tokens carry (the first --service-account-issuer). */
  issuer: string;
  /** Audiences when the request names none (the API audiences). */
  apiAudiences: string[];
  /** --service-account-max-token-expiration in seconds; 0 means no limit. */
  maxExpirationSeconds: number;
  signingKey: SigningKey;
}

const DEFAULT_EXPIRATION_SECONDS = 3600;
const MIN_EXPIRATION_SECONDS = 600;
const MAX_EXPIRATION_SECONDS = 2 ** 32;
const TOKEN_REQUEST = { group: "authentication.k8s.io", kind: TOKEN_REQUEST_KIND };

function rfc3339(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, "Z");
}

function validateExpiration(seconds: number): void {
  const field = "spec.expirationSeconds";
  const errors: FieldError[] = [];
  if (seconds < MIN_EXPIRATION_SECONDS) {
    errors.push({ type: "FieldValueInvalid", field, value: seconds, detail: "may not specify a duration less than 10 minutes" });
  }
  if (seconds > MAX_EXPIRATION_SECONDS) {
    errors.push({ type: "FieldValueInvalid", field, value: seconds, detail: "may not specify a duration larger than 2^32 seconds" });
  }
  if (errors.length > 0) throw newInvalid(TOKEN_REQUEST, "", errors);
}

function checkNames(body: TokenRequestBody, namespace: string, name: string): void {
  const mismatch = (field: string, value: string, what: string) =>
    newInvalid(TOKEN_REQUEST, name, [{
      type: "FieldValueInvalid",
      field,
      value,
      detail: `must match the service account ${what} if specified`,
    }]);
  if (body.metadata.name && body.metadata.name !== name) throw mismatch("metadata.name", body.metadata.name, "name");
  if (body.metadata.namespace && body.metadata.namespace !== namespace) {
    throw mismatch("metadata.namespace", body.metadata.namespace, "namespace");
  }
}

interface BoundObject {
  pod?: ObjectRef;
  secret?: ObjectRef;
}

async function resolveBoundObject(
  client: ReadOnlyClient,
  namespace: string,
  account: string,
  ref: TokenRequestBody["spec"]["boundObjectRef"],
): Promise<BoundObject> {
  if (!ref) return {};
  const apiVersion = ref.apiVersion ?? "";
  const group = apiVersion.includes("/") ? apiVersion.split("/")[0]! : "";
  const version = apiVersion.includes("/") ? apiVersion.split("/")[1]! : apiVersion;
  const resource = group === "" && ref.kind === "Pod" ? "pods" : group === "" && ref.kind === "Secret" ? "secrets" : undefined;
  if (!resource) throw newBadRequest(`cannot bind token to object of type ${group}/${version}, Kind=${ref.kind ?? ""}`);
  const name = ref.name ?? "";
  const object = await client.get({ group: "", version: "v1", resource, namespace, name });
  if (!object) throw newNotFound({ group: "", resource }, name);
  if (resource === "pods" && (object as { spec?: { serviceAccountName?: string } }).spec?.serviceAccountName !== account) {
    throw newBadRequest(`cannot bind token for serviceaccount "${account}" to pod running with different serviceaccount name.`);
  }
  const uid = object.metadata.uid ?? "";
  if (ref.uid && ref.uid !== uid) {
    throw newConflict(
      { group: "", resource: ref.kind! },
      name,
      `the UID in the bound object reference (${ref.uid}) does not match the UID in record. The object might have been deleted and then recreated`,
    );
  }
  return resource === "pods" ? { pod: { name, uid } } : { secret: { name, uid } };
}

export function tokenRequestHandler(client: ReadOnlyClient, options: TokenRequestOptions): Handler {
  return async (ctx: HandlerContext) => {
    if (ctx.info.verb !== "create") throw newMethodNotSupported({ group: "", resource: "serviceaccounts/token" }, ctx.info.verb);
    const { namespace, name } = ctx.info;
    const body = await readTokenRequest(ctx.request);
    checkNames(body, namespace, name);
    // kube's TokenREST.Create: admission (NodeRestriction's bound-pod rule among others) before the account lookup.
    const admitted = {
      apiVersion: TOKEN_REQUEST_API_VERSION,
      kind: TOKEN_REQUEST_KIND,
      metadata: { ...body.metadata, name, namespace },
      spec: body.spec,
    };
    await ctx.store.admitSubresourceCreate("token", namespace, name, admitted, ctx.user, ctx.warnings);
    // TokenREST.Create's account Get goes through the store's NamespaceKeyFunc (namespaces//serviceaccounts/x/token).
    if (namespace === "") throw newNamespaceParameterRequired();
    const account = await ctx.store.get(namespace, name);
    const audiences = body.spec.audiences?.length ? body.spec.audiences : options.apiAudiences;
    let expirationSeconds = body.spec.expirationSeconds === undefined ? DEFAULT_EXPIRATION_SECONDS : Number(body.spec.expirationSeconds);
    validateExpiration(expirationSeconds);
    const bound = await resolveBoundObject(client, namespace, name, body.spec.boundObjectRef);
    if (options.maxExpirationSeconds > 0 && expirationSeconds > options.maxExpirationSeconds) {
      ctx.warnings.push(`requested expiration of ${expirationSeconds} seconds shortened to ${options.maxExpirationSeconds} seconds`);
      expirationSeconds = options.maxExpirationSeconds;
    }
    const now = new Date(Math.floor(Date.now() / 1000) * 1000);
    const serviceAccount = { name, uid: account.metadata.uid ?? "" };
    const token = await signBoundToken(options.signingKey, {
      issuer: options.issuer,
      audiences,
      expirationSeconds,
      now,
      namespace,
      serviceAccount,
      ...bound,
    });
    const answer = {
      apiVersion: TOKEN_REQUEST_API_VERSION,
      kind: TOKEN_REQUEST_KIND,
      metadata: { name, namespace, creationTimestamp: rfc3339(now) },
      spec: { audiences, expirationSeconds, boundObjectRef: body.spec.boundObjectRef ?? null },
      status: { token, expirationTimestamp: rfc3339(new Date(now.getTime() + expirationSeconds * 1000)) },
    };
    return respondObject(answer as unknown as KubeObject, 201, ctx.encode);
  };
}
