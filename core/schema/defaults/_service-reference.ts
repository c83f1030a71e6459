/** Service references of webhooks and aggregated APIs talk to port 443 unless told otherwise (SetDefaults_ServiceReference). */
import { defaultPointer, type Fields } from "./_fields.ts";

const HTTPS_PORT = 443;

export function defaultServiceReference(service: Fields | undefined): void {
  if (service) defaultPointer(service, "port", HTTPS_PORT);
}
