/**
 * Bootstrap token authentication (--enable-bootstrap-token-auth). Each token is one indexed point read of its
 * Secret (kube reads an informer cache instead); that read costs about what the request's own storage read does.
 */
import { audienceAgnostic } from "../../../core/auth/audience-agnostic.ts";
import { apiAudiences } from "../../../core/auth/authentication.ts";
import { defineAuthenticator } from "../../../plugins/sdk.ts";
import { bootstrapTokenAuthenticator } from "./bootstrap-token.ts";

export default defineAuthenticator(({ config, client, log }) => {
  const lookUp = (name: string) => client.get({ group: "", version: "v1", resource: "secrets", namespace: "kube-system", name });
  return audienceAgnostic(bootstrapTokenAuthenticator(lookUp, { log }), apiAudiences(config));
});
