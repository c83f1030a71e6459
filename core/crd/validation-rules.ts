/**
 * Custom resources' x-kubernetes-validations run after the schema checks, on creates and on every update (main
 * resource and status alike, with the stored object as oldSelf), as kube's customResourceStrategy and
 * statusStrategy Validate/ValidateUpdate do; not at all when the schema checks found a wrong type or an
 * unsupported value (hasBlockingErr), since rules would then read values of the wrong type.
 */
import type { FieldError } from "../api/errors.ts";
import type { KubeObject } from "../api/types.ts";
import type { RuleValidator } from "../cel/mod.ts";

type Validate = (obj: KubeObject, old?: KubeObject) => FieldError[];

const NOT_CHECKED: FieldError = {
  type: "FieldValueInvalid",
  field: "<nil>",
  value: null,
  valueText: '"null"',
  detail: "some validation rules were not checked because the object was invalid; correct the existing errors to complete validation",
};

export function withValidationRules(schemaChecks: Validate, rules: RuleValidator | undefined): Validate {
  if (!rules) return schemaChecks;
  return (obj, old) => {
    const errors = schemaChecks(obj, old);
    if (errors.some((e) => e.type === "FieldValueTypeInvalid" || e.type === "FieldValueNotSupported")) return [...errors, NOT_CHECKED];
    return [...errors, ...rules.validate(obj, old)];
  };
}
