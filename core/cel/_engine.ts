/** CRD validation rules (x-kubernetes-validations) in CEL, as kube-apiserver 1.26 evaluates them. */
export { validationRuleErrors } from "./crd-rules.ts";
export type { RuleSchema, ValidationRule } from "./schema.ts";
export { type RuleValidator, ruleValidator } from "./validator.ts";
