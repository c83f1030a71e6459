/** MutatingAdmissionWebhook: calls the matching webhooks of MutatingWebhookConfigurations (spec 2.8, 2.9, 4.13). */
import type { BuiltInAdmissionFactory } from "../../core/admission/types.ts";
import { webhookServices, webhooksMayApply } from "../_webhook/services.ts";
import { admitWithWebhooks, MUTATING_WEBHOOK_PLUGIN } from "./dispatch.ts";

const mutatingAdmissionWebhook: BuiltInAdmissionFactory = async (context) => {
  const services = await webhookServices(context, "mutatingwebhookconfigurations");
  return {
    name: MUTATING_WEBHOOK_PLUGIN,
    admit: (attributes) => (webhooksMayApply(attributes, services) ? admitWithWebhooks(attributes, services) : undefined),
  };
};

export default mutatingAdmissionWebhook;
