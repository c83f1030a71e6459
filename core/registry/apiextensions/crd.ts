/** The fields of an apiextensions.k8s.io/v1 CustomResourceDefinition this server reads. */
import type { KubeObject } from "../../api/types.ts";
import type { ClientConfig } from "../../webhook/mod.ts";
import type { JSONSchemaProps } from "./schema.ts";

export interface CRDNames {
  plural: string;
  singular?: string;
  kind: string;
  listKind?: string;
  shortNames?: string[];
  categories?: string[];
}

export interface PrinterColumn {
  name: string;
  type: string;
  format?: string;
  description?: string;
  priority?: number;
  jsonPath: string;
}

export interface ScaleSubresource {
  specReplicasPath: string;
  statusReplicasPath: string;
  labelSelectorPath?: string;
}

export interface CRDVersion {
  name: string;
  served: boolean;
  storage: boolean;
  deprecated?: boolean;
  deprecationWarning?: string;
  schema?: { openAPIV3Schema?: JSONSchemaProps };
  subresources?: { status?: Record<string, never>; scale?: ScaleSubresource };
  additionalPrinterColumns?: PrinterColumn[];
}

export interface WebhookConversion {
  clientConfig?: ClientConfig;
  conversionReviewVersions?: string[];
}

export interface CRDCondition {
  type: string;
  status: "True" | "False" | "Unknown";
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

export interface CustomResourceDefinition extends KubeObject {
  spec: {
    group: string;
    names: CRDNames;
    scope: "Namespaced" | "Cluster";
    versions: CRDVersion[];
    conversion?: { strategy: "None" | "Webhook"; webhook?: WebhookConversion };
    preserveUnknownFields?: boolean;
  };
  status?: {
    conditions?: CRDCondition[];
    acceptedNames?: CRDNames;
    storedVersions?: string[];
  };
}

export const CRD_GROUP = "apiextensions.k8s.io";
export const CRD_RESOURCE = "customresourcedefinitions";
/** The finalizer kube puts on a deleted CRD until every custom resource of it is gone. */
export const CLEANUP_FINALIZER = "customresourcecleanup.apiextensions.k8s.io";

export function storageVersionOf(crd: CustomResourceDefinition): CRDVersion | undefined {
  return crd.spec.versions.find((version) => version.storage);
}

export function conditionOf(crd: CustomResourceDefinition, type: string): CRDCondition | undefined {
  return crd.status?.conditions?.find((condition) => condition.type === type);
}
