/**
 * CustomResourceDefinitions between apiextensions.k8s.io/v1 (kubun's stored form) and v1beta1 (kube's storage
 * version), through kube's rules: Convert_v1_CustomResourceDefinitionSpec_To_apiextensions_CustomResourceDefinitionSpec
 * sets `version` to versions[0] and lifts versions' subresources, schema and printer columns to the spec when every
 * version has the same (Semantic.DeepEqual: absent and empty lists are equal); its reverse copies the spec's down to
 * every version. v1beta1 names a column's path `JSONPath`, holds the webhook's fields on `conversion` itself and
 * has a *bool preserveUnknownFields (v1's false is written out). Reading applies v1beta1's defaults
 * (SetDefaults_CustomResourceDefinitionSpec): versions from `version`, preserveUnknownFields true when unset.
 */
import { isPlainObject, type KubeObject } from "../../api/types.ts";

type Fields = Record<string, unknown>;

export const CRD_V1 = "apiextensions.k8s.io/v1";
export const CRD_V1BETA1 = "apiextensions.k8s.io/v1beta1";

const fields = (value: unknown): Fields => (isPlainObject(value) ? value as Fields : {});
const list = (value: unknown): Fields[] => (Array.isArray(value) ? value.map(fields) : []);

/** Drops undefined members, so objects built in Go's field order carry only what is set. */
function defined(object: Fields): Fields {
  return Object.fromEntries(Object.entries(object).filter(([, value]) => value !== undefined));
}

/** Deep equality of JSON values where an absent list equals an empty one, as Semantic.DeepEqual treats nil and empty. */
function semanticallyEqual(a: unknown, b: unknown): boolean {
  const empty = (value: unknown) => value === undefined || value === null || (Array.isArray(value) && value.length === 0);
  if (empty(a) || empty(b)) return empty(a) && empty(b);
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((item, i) => semanticallyEqual(item, b[i]));
  }
  if (isPlainObject(a) && isPlainObject(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    return [...keys].every((key) => semanticallyEqual(a[key], b[key]));
  }
  return a === b;
}

const renameKey = (object: Fields, from: string, to: string): Fields =>
  Object.fromEntries(Object.entries(object).map(([key, value]) => [key === from ? to : key, value]));

const columnsToV1beta1 = (
  columns: unknown,
) => (columns === undefined ? undefined : list(columns).map((c) => renameKey(c, "jsonPath", "JSONPath")));
const columnsToV1 = (
  columns: unknown,
) => (columns === undefined ? undefined : list(columns).map((c) => renameKey(c, "JSONPath", "jsonPath")));

function conversionToV1beta1(conversion: unknown): Fields | undefined {
  if (conversion === undefined) return undefined;
  const { strategy, webhook } = fields(conversion);
  const { clientConfig, conversionReviewVersions } = fields(webhook);
  return defined({ strategy, webhookClientConfig: clientConfig, conversionReviewVersions });
}

function conversionToV1(conversion: unknown): Fields | undefined {
  if (conversion === undefined) return undefined;
  const { strategy, webhookClientConfig, conversionReviewVersions } = fields(conversion);
  const webhook = webhookClientConfig === undefined && conversionReviewVersions === undefined
    ? undefined
    : defined({ clientConfig: webhookClientConfig, conversionReviewVersions });
  return defined({ strategy, webhook });
}

/** The v1 spec's per-version field the v1beta1 spec lifts, when every version has the same one. */
function lifted(versions: Fields[], field: string): { value: unknown } | undefined {
  const first = versions[0]?.[field];
  return versions.every((version) => semanticallyEqual(version[field], first)) ? { value: first } : undefined;
}

function specToV1beta1(spec: Fields): Fields {
  const versions = list(spec.versions);
  const subresources = lifted(versions, "subresources");
  const schema = lifted(versions, "schema");
  const columns = lifted(versions, "additionalPrinterColumns");
  return defined({
    group: spec.group,
    version: versions[0]?.name,
    names: spec.names,
    scope: spec.scope,
    validation: schema?.value,
    subresources: subresources?.value,
    versions: versions.map((version) =>
      defined({
        name: version.name,
        served: version.served,
        storage: version.storage,
        deprecated: version.deprecated,
        deprecationWarning: version.deprecationWarning,
        schema: schema ? undefined : version.schema,
        subresources: subresources ? undefined : version.subresources,
        additionalPrinterColumns: columns ? undefined : columnsToV1beta1(version.additionalPrinterColumns),
      })
    ),
    additionalPrinterColumns: columnsToV1beta1(columns?.value),
    conversion: conversionToV1beta1(spec.conversion),
    preserveUnknownFields: spec.preserveUnknownFields === true,
  });
}

function specToV1(spec: Fields): Fields {
  const declared = list(spec.versions);
  const versions = declared.length > 0 || spec.version === undefined ? declared : [{ name: spec.version, served: true, storage: true }];
  const preserve = spec.preserveUnknownFields ?? true;
  return defined({
    group: spec.group,
    names: spec.names,
    scope: spec.scope,
    versions: versions.map((version) =>
      defined({
        name: version.name,
        served: version.served,
        storage: version.storage,
        deprecated: version.deprecated,
        deprecationWarning: version.deprecationWarning,
        schema: spec.validation ?? version.schema,
        subresources: spec.subresources ?? version.subresources,
        additionalPrinterColumns: columnsToV1(spec.additionalPrinterColumns ?? version.additionalPrinterColumns),
      })
    ),
    conversion: conversionToV1(spec.conversion),
    preserveUnknownFields: preserve === true ? true : undefined,
  });
}

export function crdToV1beta1(crd: KubeObject): KubeObject {
  return { ...crd, apiVersion: CRD_V1BETA1, spec: specToV1beta1(fields(crd.spec)) };
}

export function crdToV1(crd: KubeObject): KubeObject {
  return { ...crd, apiVersion: CRD_V1, spec: specToV1(fields(crd.spec)) };
}
