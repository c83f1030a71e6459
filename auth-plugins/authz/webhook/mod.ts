/**
 * Webhook (--authorization-mode=Webhook): SubjectAccessReviews to the service named by
 * --authorization-webhook-config-file (kubeconfig format: server URL, CA, optional client certificate).
 */
import { defineAuthorizer } from "../../../plugins/sdk.ts";
import { httpsJson } from "../../_webhook/https-json.ts";
import { readWebhookConfig } from "../../_webhook/config.ts";
import { webhookAuthorizer } from "./authorizer.ts";
import { SUPPORTED_VERSIONS } from "./review.ts";

export default defineAuthorizer(async ({ config, log }) => {
  const path = config.authorizationWebhookConfigFile;
  if (path === "") {
    throw new Error("authorization-mode Webhook's authorization config file not passed (--authorization-webhook-config-file)");
  }
  const version = config.authorizationWebhookVersion.replace(/^authorization\.k8s\.io\//, "");
  if (!SUPPORTED_VERSIONS.includes(version)) {
    throw new Error(
      `unsupported webhook authorizer version ${
        JSON.stringify(config.authorizationWebhookVersion)
      }, supported versions are "v1", "v1beta1"`,
    );
  }
  const target = await readWebhookConfig(path);
  return webhookAuthorizer((review) => httpsJson(target.url, { ...target, method: "POST", body: review }), {
    version,
    authorizedTtlMs: config.authorizationWebhookCacheAuthorizedTtlMs,
    unauthorizedTtlMs: config.authorizationWebhookCacheUnauthorizedTtlMs,
    log,
  });
});
