/**
 * Everything a webhook plugin needs, built once from its plugin context: the followed configurations, the
 * matching lookups, the client credentials of its WebhookAdmissionConfiguration and the rejection metric.
 */
import type { AdmissionAttributes, BuiltInAdmissionContext } from "../../core/admission/types.ts";
import type { CallServices } from "./call.ts";
import { kubeconfigPathOf, NO_CREDENTIALS, readCredentialsKubeconfig } from "./client-credentials.ts";
import { type ConfigurationResource, WebhookConfigurations } from "./configurations.ts";
import type { MatchContext } from "./invocation.ts";
import { matchContext } from "./match-context.ts";
import { NO_RECORDER, type RejectionRecorder, rejectionRecorder } from "./metrics.ts";
import { isExemptFromWebhooks } from "./rules.ts";

export interface WebhookServices extends CallServices {
  configurations: WebhookConfigurations;
  match: MatchContext;
  rejections: RejectionRecorder;
}

export async function webhookServices(context: BuiltInAdmissionContext, resource: ConfigurationResource): Promise<WebhookServices> {
  const kubeconfig = kubeconfigPathOf(context.pluginConfig);
  return {
    client: context.client,
    credentials: kubeconfig ? await readCredentialsKubeconfig(kubeconfig) : NO_CREDENTIALS,
    configurations: await WebhookConfigurations.follow(
      context.client,
      resource,
      context.catalog.byGroupVersionResource("admissionregistration.k8s.io", "v1", resource) !== undefined,
    ),
    match: matchContext(context.catalog, context.client),
    rejections: context.metricsRegistry ? rejectionRecorder(context.metricsRegistry) : NO_RECORDER,
  };
}

/**
 * Whether a request may reach a webhook: it writes no admission configuration and some webhook is configured. The
 * plugins answer the others at once, without a promise (kube still times their call: WithControllerMetrics).
 */
export function webhooksMayApply(attributes: Pick<AdmissionAttributes, "resource">, services: WebhookServices): boolean {
  return !isExemptFromWebhooks(attributes.resource) && services.configurations.hooks().length > 0;
}
