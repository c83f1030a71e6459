/** kube's apply conflict error: 409 Conflict, one FieldManagerConflict cause per field (fieldmanager's NewConflictError). */
import { StatusError } from "../../api/errors.ts";
import { type FieldPath, pathToString } from "./path-element.ts";

export interface FieldConflict {
  /** The other manager's identifier (see managerId). */
  managerId: string;
  path: FieldPath;
}

/** `"name"`, with the subresource and, for updaters, the apiVersion they wrote with (printManager). */
export function describeManager(id: string): string {
  const entry = JSON.parse(id) as { manager: string; operation: string; apiVersion?: string; subresource?: string };
  let text = JSON.stringify(entry.manager);
  if (entry.subresource) text += ` with subresource ${JSON.stringify(entry.subresource)}`;
  if (entry.operation === "Update") text += ` using ${entry.apiVersion ?? ""}`;
  return text;
}

function conflictMessage(conflicts: FieldConflict[]): string {
  if (conflicts.length === 1) {
    return `Apply failed with 1 conflict: conflict with ${describeManager(conflicts[0].managerId)}: ${pathToString(conflicts[0].path)}`;
  }
  const byManager = new Map<string, FieldConflict[]>();
  for (const c of conflicts) byManager.set(c.managerId, [...(byManager.get(c.managerId) ?? []), c]);
  const lines: string[] = [];
  for (const id of [...byManager.keys()].sort()) {
    lines.push(`conflicts with ${describeManager(id)}:`);
    for (const c of byManager.get(id)!) lines.push(`- ${pathToString(c.path)}`);
  }
  return `Apply failed with ${conflicts.length} conflicts: ${lines.join("\n")}`;
}

export function newApplyConflict(conflicts: FieldConflict[]): StatusError {
  const causes = conflicts.map((c) => ({
    reason: "FieldManagerConflict",
    message: `conflict with ${describeManager(c.managerId)}`,
    field: pathToString(c.path),
  }));
  return new StatusError(409, "Conflict", conflictMessage(conflicts), { causes });
}

export function isApplyConflict(e: unknown): e is StatusError {
  return e instanceof StatusError && e.code === 409 && (e.details?.causes ?? []).some((c) => c.reason === "FieldManagerConflict");
}
