/** Go's time.Parse(time.RFC3339, value) for readers outside the schema checks (metav1.Time.UnmarshalQueryParameter). */
import { RFC3339, timeParseError } from "./_field-time.ts";

export function parsesAsRFC3339(value: string): boolean {
  return timeParseError(RFC3339, value) === undefined;
}
