/** Printers for API-server configuration kinds: webhook configurations, flow control, and APIServices. */
import { compareByteOrder } from "../byte-order.ts";
import type { KubeObject } from "../types.ts";
import { AGE_COLUMN, column, definePrinter, NAME_COLUMN } from "./_printer.ts";
import { ageOf } from "./duration.ts";

export const webhookConfigurationPrinter = definePrinter<KubeObject & { webhooks?: unknown[] }>(
  [NAME_COLUMN, column("Webhooks", "Number of webhooks in the configuration", { type: "integer" }), AGE_COLUMN],
  (config, now) => [config.metadata.name, config.webhooks?.length ?? 0, ageOf(config, now)],
);

interface FlowSchema extends KubeObject {
  spec?: { priorityLevelConfiguration?: { name?: string }; matchingPrecedence?: number; distinguisherMethod?: { type?: string } | null };
  status?: { conditions?: { type: string; status?: string }[] };
}

export const flowSchemaPrinter = definePrinter<FlowSchema>(
  [
    NAME_COLUMN,
    column("PriorityLevel", "The priority level requests are assigned to"),
    column("MatchingPrecedence", "Lower values are matched first"),
    column("DistinguisherMethod", "How requests are split into flows"),
    AGE_COLUMN,
    column("MissingPL", "Whether the priority level is missing"),
  ],
  (schema, now) => [
    schema.metadata.name,
    schema.spec?.priorityLevelConfiguration?.name ?? "",
    schema.spec?.matchingPrecedence ?? 0,
    schema.spec?.distinguisherMethod?.type ?? "<none>",
    ageOf(schema, now),
    schema.status?.conditions?.find((c) => c.type === "Dangling")?.status ?? "?",
  ],
  // printFlowSchemaList prints apihelpers.FlowSchemaSequence order: matching precedence, then name.
  {
    compareRows: (a, b) =>
      (a.spec?.matchingPrecedence ?? 0) - (b.spec?.matchingPrecedence ?? 0) ||
      compareByteOrder(a.metadata.name ?? "", b.metadata.name ?? ""),
  },
);

interface PriorityLevelConfiguration extends KubeObject {
  spec?: {
    type?: string;
    limited?: {
      nominalConcurrencyShares?: number;
      assuredConcurrencyShares?: number;
      limitResponse?: { queuing?: { queues?: number; handSize?: number; queueLengthLimit?: number } | null };
    } | null;
  };
}

export const priorityLevelConfigurationPrinter = definePrinter<PriorityLevelConfiguration>(
  [
    NAME_COLUMN,
    column("Type", "Exempt or Limited"),
    column("NominalConcurrencyShares", "Share of the server's concurrency"),
    column("Queues", "Number of queues"),
    column("HandSize", "Queues each flow is shuffled over"),
    column("QueueLengthLimit", "Requests each queue may hold"),
    AGE_COLUMN,
  ],
  (level, now) => {
    const limited = level.spec?.limited;
    // v1beta2 calls the shares "assuredConcurrencyShares"; v1beta3 renamed them.
    const shares = limited ? limited.nominalConcurrencyShares ?? limited.assuredConcurrencyShares ?? 0 : "<none>";
    const queuing = limited?.limitResponse?.queuing;
    const queueCell = (value: number | undefined) => (queuing ? value ?? 0 : "<none>");
    return [
      level.metadata.name,
      level.spec?.type ?? "",
      shares,
      queueCell(queuing?.queues),
      queueCell(queuing?.handSize),
      queueCell(queuing?.queueLengthLimit),
      ageOf(level, now),
    ];
  },
);

interface APIService extends KubeObject {
  spec?: { service?: { namespace?: string; name?: string } | null };
  status?: { conditions?: { type: string; status?: string; reason?: string }[] };
}

/** The Available condition's status, with its reason when not True; "Unknown" when absent. */
function availability(service: APIService): string {
  const available = service.status?.conditions?.find((c) => c.type === "Available");
  if (!available) return "Unknown";
  const status = available.status ?? "";
  return status !== "True" && available.reason ? `${status} (${available.reason})` : status;
}

export const apiServicePrinter = definePrinter<APIService>(
  [
    NAME_COLUMN,
    column("Service", "The service serving this API, or Local"),
    column("Available", "Whether the API is available"),
    AGE_COLUMN,
  ],
  (service, now) => {
    const backend = service.spec?.service;
    return [
      service.metadata.name,
      backend ? `${backend.namespace ?? ""}/${backend.name ?? ""}` : "Local",
      availability(service),
      ageOf(service, now),
    ];
  },
);
