/** metav1.Condition lists (apimachinery's metav1validation ValidateConditions and ValidateCondition). */
import type { FieldError } from "../../api/errors.ts";
import { isQualifiedName, regexError } from "../../api/names.ts";
import { duplicate, invalid, isSet, list, notSupported, record, required, text, tooLong } from "./_field.ts";

const CONDITION_STATUSES = ["False", "True", "Unknown"];
const MAX_REASON_BYTES = 1024;
const MAX_MESSAGE_BYTES = 32 * 1024;
const REASON_FMT = "[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?";
const REASON_PATTERN = new RegExp(`^${REASON_FMT}$`);
const REASON_ERROR = regexError(
  "a condition reason must start with alphabetic character, optionally followed by a string of alphanumeric characters or '_,:', and must end with an alphanumeric character or '_'",
  REASON_FMT,
  "my_name",
  "MY_NAME",
  "MyName",
  "ReasonA,ReasonB",
  "ReasonA:ReasonB",
);
const GO_ZERO_TIME = "0001-01-01T00:00:00Z";
const byteLength = (value: string) => new TextEncoder().encode(value).byteLength;

/** ValidateCondition: type a qualified name, a known status, observedGeneration ≥ 0, the time and reason set. */
function validateCondition(conditionValue: unknown, path: string): FieldError[] {
  const condition = record(conditionValue);
  const type = text(condition.type);
  const reason = text(condition.reason);
  const errors = isQualifiedName(type).map((message) => invalid(`${path}.type`, type, message));
  const status = text(condition.status);
  if (!CONDITION_STATUSES.includes(status)) errors.push(notSupported(`${path}.status`, status, CONDITION_STATUSES));
  if (typeof condition.observedGeneration === "number" && condition.observedGeneration < 0) {
    errors.push(invalid(`${path}.observedGeneration`, condition.observedGeneration, "must be greater than or equal to zero"));
  }
  const time = condition.lastTransitionTime;
  if (!isSet(time) || time === "" || time === GO_ZERO_TIME) errors.push(required(`${path}.lastTransitionTime`, "must be set"));
  if (reason === "") {
    errors.push(required(`${path}.reason`, "must be set"));
  } else {
    if (!REASON_PATTERN.test(reason)) errors.push(invalid(`${path}.reason`, reason, REASON_ERROR));
    if (byteLength(reason) > MAX_REASON_BYTES) errors.push(tooLong(`${path}.reason`, MAX_REASON_BYTES));
  }
  if (byteLength(text(condition.message)) > MAX_MESSAGE_BYTES) errors.push(tooLong(`${path}.message`, MAX_MESSAGE_BYTES));
  return errors;
}

/** ValidateConditions: each condition's rules, and a type seen before is a Duplicate at its `type`. */
export function validateConditions(conditions: unknown, path: string): FieldError[] {
  const seen = new Set<string>();
  return list(conditions).flatMap((condition, i) => {
    const type = text(record(condition).type);
    const errors = seen.has(type) ? [duplicate(`${path}[${i}].type`, type)] : [];
    seen.add(type);
    return [...errors, ...validateCondition(condition, `${path}[${i}]`)];
  });
}
