/** The two --audit-log-format renderings of an event: `json` (one Event per line) and kube's `legacy` line (pkg/audit/format.go EventString). */
import { type AuditEvent, eventJson } from "./event.ts";

export type LogFormat = "json" | "legacy";

export function formatEvent(event: AuditEvent, format: LogFormat): string {
  if (format === "json") return `${eventJson(event)}\n`;
  // The log backend prefixes the received time in Go's RFC3339Nano (trailing fractional zeros dropped).
  return `${event.requestReceivedTimestamp.replace(/\.?0+Z$/, "Z")} ${eventString(event)}\n`;
}

/** EventString: `AUDIT: id=… stage=… …` with Go's %q quoting and kube's placeholders for absent values. */
export function eventString(event: AuditEvent): string {
  const username = event.user.username || "<none>";
  const groups = event.user.username && event.user.groups?.length ? quotedList(event.user.groups) : "<none>";
  const asUser = event.impersonatedUser ? event.impersonatedUser.username : "<self>";
  const asGroups = event.impersonatedUser?.groups ? quotedList(event.impersonatedUser.groups) : "<lookup>";
  const namespace = event.objectRef?.namespace || "<none>";
  const response = event.responseStatus ? String(event.responseStatus.code ?? 0) : "<deferred>";
  const ip = event.sourceIPs?.[0] ?? "<unknown>";
  const q = JSON.stringify;
  return `AUDIT: id=${q(event.auditID)} stage=${q(event.stage)} ip=${q(ip)} method=${q(event.verb)} user=${q(username)} groups=${
    q(groups)
  } as=${q(asUser)} asgroups=${q(asGroups)} user-agent=${q(event.userAgent ?? "")} namespace=${q(namespace)} uri=${
    q(event.requestURI)
  } response="${response}"`;
}

function quotedList(values: string[]): string {
  return values.map((value) => JSON.stringify(value)).join(",");
}
