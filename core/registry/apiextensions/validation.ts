/**
 * ValidateCustomResourceDefinition (apiextensions-apiserver validation.go), the rules this server depends on:
 * names, scope, versions with one storage version, schemas, subresource paths, the conversion strategy. Field
 * paths are kube's internal ones (spec.conversion.webhookClientConfig), as its messages print them.
 */
import { isDeepStrictEqual } from "node:util";
import { goStringSlice } from "../../api/go-text.ts";
import type { FieldError } from "../../api/errors.ts";
import type { KubeObject } from "../../api/types.ts";
import { validationRuleErrors } from "../../cel/mod.ts";
import { validateClientConfig } from "../validation/mod.ts";
import type { CRDVersion, CustomResourceDefinition } from "./crd.ts";
import { parseJSONPath } from "./jsonpath.ts";

const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const VERSION_NAME = DNS_LABEL;

function required(field: string, detail = ""): FieldError {
  return { type: "FieldValueRequired", field, detail };
}

function invalid(field: string, value: unknown, detail: string): FieldError {
  return { type: "FieldValueInvalid", field, value, detail };
}

function namesErrors(crd: CustomResourceDefinition): FieldError[] {
  const names = crd.spec.names ?? {};
  const errors: FieldError[] = [];
  for (const field of ["plural", "kind"] as const) {
    if (!names[field]) errors.push(required(`spec.names.${field}`));
  }
  for (const field of ["plural", "singular"] as const) {
    const value = names[field];
    if (value && !DNS_LABEL.test(value)) {
      errors.push(
        invalid(
          `spec.names.${field}`,
          value,
          "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character",
        ),
      );
    }
  }
  (names.shortNames ?? []).forEach((shortName, i) => {
    if (!DNS_LABEL.test(shortName)) {
      errors.push(
        invalid(
          `spec.names.shortNames[${i}]`,
          shortName,
          "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character",
        ),
      );
    }
  });
  if (names.kind && names.kind === names.listKind) {
    errors.push(invalid("spec.names.listKind", names.listKind, "kind and listKind may not be the same"));
  }
  return errors;
}

function versionErrors(version: CRDVersion, path: string): FieldError[] {
  const errors: FieldError[] = [];
  if (!VERSION_NAME.test(version.name ?? "")) {
    errors.push(invalid(`${path}.name`, version.name, "a DNS-1035 label must consist of lower case alphanumeric characters or '-'"));
  }
  const schema = version.schema?.openAPIV3Schema;
  if (!schema) errors.push(required(`${path}.schema.openAPIV3Schema`, "schemas are required"));
  else if (schema.type !== "object") errors.push(required(`${path}.schema.openAPIV3Schema.type`, "must be object at the root"));
  const scale = version.subresources?.scale;
  if (scale) {
    for (
      const [field, prefix] of [["specReplicasPath", ".spec."], ["statusReplicasPath", ".status."], [
        "labelSelectorPath",
        ".status.",
      ]] as const
    ) {
      const value = scale[field];
      if (value === undefined && field === "labelSelectorPath") continue;
      if (!value) errors.push(required(`${path}.subresources.scale.${field}`));
      else if (!validPath(value) || !(value.startsWith(prefix) || value.startsWith(".spec."))) {
        errors.push(invalid(`${path}.subresources.scale.${field}`, value, `should be a json path under ${prefix}`));
      }
    }
  }
  (version.additionalPrinterColumns ?? []).forEach((column, i) => {
    if (!validPath(column.jsonPath ?? "")) {
      errors.push(invalid(`${path}.additionalPrinterColumns[${i}].jsonPath`, column.jsonPath, "must be a simple json path"));
    }
  });
  return errors;
}

function validPath(path: string): boolean {
  try {
    return path.startsWith(".") && parseJSONPath(path).length > 0;
  } catch {
    return false;
  }
}

const REVIEW_VERSIONS = ["v1", "v1beta1"];

/** kube's ValidateCustomResourceConversion and validateConversionReviewVersions. */
function conversionErrors(conversion: CustomResourceDefinition["spec"]["conversion"]): FieldError[] {
  if (!conversion) return [];
  const path = "spec.conversion";
  const webhook = conversion.webhook;
  if (conversion.strategy !== "Webhook" && conversion.strategy !== "None") {
    return [{
      type: "FieldValueNotSupported",
      field: `${path}.strategy`,
      value: conversion.strategy ?? "",
      detail: 'supported values: "None", "Webhook"',
    }];
  }
  if (conversion.strategy === "None") {
    const forbidden = "should not be set when strategy is not set to Webhook";
    const errors: FieldError[] = [];
    if (webhook?.clientConfig) errors.push({ type: "FieldValueForbidden", field: `${path}.webhookClientConfig`, detail: forbidden });
    if ((webhook?.conversionReviewVersions ?? []).length > 0) {
      errors.push({ type: "FieldValueForbidden", field: `${path}.conversionReviewVersions`, detail: forbidden });
    }
    return errors;
  }
  const errors: FieldError[] = [];
  if (!webhook?.clientConfig) errors.push(required(`${path}.webhookClientConfig`, "required when strategy is set to Webhook"));
  else errors.push(...validateClientConfig(webhook.clientConfig, `${path}.webhookClientConfig`));
  const versions = webhook?.conversionReviewVersions ?? [];
  if (versions.length === 0) errors.push(required(`${path}.conversionReviewVersions`));
  else if (!versions.some((version) => REVIEW_VERSIONS.includes(version))) {
    const detail = `must include at least one of ${REVIEW_VERSIONS.join(", ")}`;
    errors.push({ ...invalid(`${path}.conversionReviewVersions`, versions, detail), valueText: goStringSlice(versions) });
  }
  return errors;
}

export function validateCustomResourceDefinition(obj: KubeObject): FieldError[] {
  const crd = obj as CustomResourceDefinition;
  const spec = crd.spec ?? {};
  const errors: FieldError[] = [];
  if (!spec.group) errors.push(required("spec.group"));
  else if (!spec.group.includes(".")) errors.push(invalid("spec.group", spec.group, "should be a domain with at least one dot"));
  if (spec.names?.plural && spec.group && crd.metadata.name !== `${spec.names.plural}.${spec.group}`) {
    errors.push(invalid("metadata.name", crd.metadata.name, 'must be spec.names.plural+"."+spec.group'));
  }
  if (spec.scope !== "Namespaced" && spec.scope !== "Cluster") {
    errors.push({
      type: "FieldValueNotSupported",
      field: "spec.scope",
      value: spec.scope ?? "",
      detail: 'supported values: "Cluster", "Namespaced"',
    });
  }
  errors.push(...namesErrors(crd));
  const versions = spec.versions ?? [];
  if (versions.length === 0) errors.push(required("spec.versions", "must have exactly one version marked as storage version"));
  else if (versions.filter((version) => version.storage).length !== 1) {
    errors.push(
      invalid("spec.versions", versions.map((version) => version.name), "must have exactly one version marked as storage version"),
    );
  }
  const seen = new Set<string>();
  versions.forEach((version, i) => {
    if (seen.has(version.name)) {
      errors.push({ type: "FieldValueDuplicate", field: `spec.versions[${i}].name`, value: version.name, detail: "" });
    }
    seen.add(version.name);
    errors.push(...versionErrors(version, `spec.versions[${i}]`));
  });
  errors.push(...conversionErrors(spec.conversion));
  errors.push(...celRuleErrors(versions));
  return errors;
}

/**
 * x-kubernetes-validations of every version's schema. kube validates the internal CRD, where versions that all
 * share one schema have it at spec.validation (the v1 conversion lifts it there), so that is the path then.
 */
function celRuleErrors(versions: CRDVersion[]): FieldError[] {
  const schemas = versions.map((version) => version.schema?.openAPIV3Schema);
  if (schemas.some((schema) => schema?.type !== "object")) return [];
  if (schemas.every((schema) => isDeepStrictEqual(schema, schemas[0]))) {
    return validationRuleErrors(schemas[0]!, "spec.validation.openAPIV3Schema");
  }
  return schemas.flatMap((schema, i) => validationRuleErrors(schema!, `spec.versions[${i}].schema.openAPIV3Schema`));
}

export function validateCustomResourceDefinitionUpdate(obj: KubeObject, old: KubeObject): FieldError[] {
  const errors = validateCustomResourceDefinition(obj);
  const scope = (obj as CustomResourceDefinition).spec?.scope;
  const oldScope = (old as CustomResourceDefinition).spec?.scope;
  if (scope !== oldScope) errors.push(invalid("spec.scope", scope, "field is immutable"));
  return errors;
}
