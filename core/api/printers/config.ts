/** Printers for ConfigMaps, Secrets, ServiceAccounts and ResourceQuotas. */
import type { KubeObject } from "../types.ts";
import { quantityText, sortedStrings } from "./_format.ts";
import { AGE_COLUMN, column, definePrinter, NAME_COLUMN } from "./_printer.ts";
import { ageOf } from "./duration.ts";

const keyCount = (map: object | null | undefined) => Object.keys(map ?? {}).length;

export const configMapPrinter = definePrinter<KubeObject & { data?: object; binaryData?: object }>(
  [NAME_COLUMN, column("Data", "Number of data and binary data keys"), AGE_COLUMN],
  (cm, now) => [cm.metadata.name, keyCount(cm.data) + keyCount(cm.binaryData), ageOf(cm, now)],
);

export const secretPrinter = definePrinter<KubeObject & { type?: string; data?: object }>(
  [NAME_COLUMN, column("Type", "The secret's type"), column("Data", "Number of data keys"), AGE_COLUMN],
  (secret, now) => [secret.metadata.name, secret.type ?? "", keyCount(secret.data), ageOf(secret, now)],
);

export const serviceAccountPrinter = definePrinter<KubeObject & { secrets?: unknown[] }>(
  [NAME_COLUMN, column("Secrets", "Number of secrets the account may use"), AGE_COLUMN],
  (sa, now) => [sa.metadata.name, sa.secrets?.length ?? 0, ageOf(sa, now)],
);

type Quantities = Record<string, string | number>;

/** "resource: used/hard" per hard limit, sorted; limits.* go to the Limit column, the rest to Request. */
function quotaColumns(hard: Quantities, used: Quantities): [string, string] {
  const requests: string[] = [];
  const limits: string[] = [];
  for (const resource of sortedStrings(Object.keys(hard))) {
    const pieces = resource.split(".");
    const target = pieces.length > 1 && pieces[0] === "limits" ? limits : requests;
    target.push(`${resource}: ${quantityText(used[resource])}/${quantityText(hard[resource])}`);
  }
  return [requests.join(", "), limits.join(", ")];
}

export const resourceQuotaPrinter = definePrinter<KubeObject & { status?: { hard?: Quantities; used?: Quantities } }>(
  [
    NAME_COLUMN,
    AGE_COLUMN,
    column("Request", "Used out of hard limits for requests and counts"),
    column("Limit", "Used out of hard limits for limits"),
  ],
  (quota, now) => [quota.metadata.name, ageOf(quota, now), ...quotaColumns(quota.status?.hard ?? {}, quota.status?.used ?? {})],
);
