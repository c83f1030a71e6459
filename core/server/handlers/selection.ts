/** The label and field selection of list, watch and deletecollection requests, as one predicate. */
import { fieldsOf } from "../../api/field-labels.ts";
import { type FieldSelector, isEverythingFields, matchesFields, validateFieldSelector } from "../../api/field-selector.ts";
import { isEverything, type LabelSelector, matchesLabels } from "../../api/label-selector.ts";
import type { KubeObject } from "../../api/types.ts";
import type { KindDefinition } from "../../registry/definition.ts";

/** undefined when the request selects everything; 400 for a field the kind cannot be selected by. */
export function selectionOf(
  definition: KindDefinition,
  labels: LabelSelector,
  requested: FieldSelector,
): ((obj: KubeObject) => boolean) | undefined {
  const fields = validateFieldSelector(requested, definition.fields);
  const selectsLabels = !isEverything(labels);
  const selectsFields = !isEverythingFields(fields);
  if (!selectsLabels && !selectsFields) return undefined;
  return (obj) =>
    (!selectsLabels || matchesLabels(labels, obj.metadata.labels)) &&
    (!selectsFields || matchesFields(fields, fieldsOf(definition.fields, obj)));
}
