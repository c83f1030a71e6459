/** ValidatingAdmissionWebhook: calls the matching webhooks of ValidatingWebhookConfigurations in parallel (spec 4.13). */
import type { BuiltInAdmissionFactory } from "../../core/admission/types.ts";
import { webhookServices, webhooksMayApply } from "../_webhook/services.ts";
import { validateWithWebhooks, VALIDATING_WEBHOOK_PLUGIN } from "./dispatch.ts";

const validatingAdmissionWebhook: BuiltInAdmissionFactory = async (context) => {
  const services = await webhookServices(context, "validatingwebhookconfigurations");
  return {
    name: VALIDATING_WEBHOOK_PLUGIN,
    validate: (attributes) => (webhooksMayApply(attributes, services) ? validateWithWebhooks(attributes, services) : undefined),
  };
};

export default validatingAdmissionWebhook;
