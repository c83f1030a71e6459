/**
 * FlowSchema and PriorityLevelConfiguration between flowcontrol v1beta3 and v1beta2 (the stored form): kube 1.26's
 * v1beta3 renamed limited.assuredConcurrencyShares to nominalConcurrencyShares (pkg/apis/flowcontrol/v1beta3
 * conversion.go); every other field, and FlowSchemas entirely, have one shape, so only apiVersion changes.
 */
import { isPlainObject, type KubeObject } from "../../api/types.ts";
import type { VersionConversion } from "./mod.ts";

const V1BETA2 = "flowcontrol.apiserver.k8s.io/v1beta2";
const V1BETA3 = "flowcontrol.apiserver.k8s.io/v1beta3";

function converting(apiVersion: string, renameShares?: { from: string; to: string }) {
  return (obj: KubeObject): KubeObject => {
    const spec = obj.spec;
    if (!renameShares || !isPlainObject(spec) || !isPlainObject(spec.limited) || !(renameShares.from in spec.limited)) {
      return { ...obj, apiVersion };
    }
    const { [renameShares.from]: shares, ...limited } = spec.limited;
    return { ...obj, apiVersion, spec: { ...spec, limited: { [renameShares.to]: shares, ...limited } } };
  };
}

const storedAsItself: VersionConversion = { toStored: converting(V1BETA2), fromStored: converting(V1BETA2) };

export const FLOWCONTROL_CONVERSIONS: Record<string, VersionConversion> = {
  "flowcontrol.apiserver.k8s.io/v1beta2/flowschemas": storedAsItself,
  "flowcontrol.apiserver.k8s.io/v1beta2/prioritylevelconfigurations": storedAsItself,
  "flowcontrol.apiserver.k8s.io/v1beta3/flowschemas": { toStored: converting(V1BETA2), fromStored: converting(V1BETA3) },
  "flowcontrol.apiserver.k8s.io/v1beta3/prioritylevelconfigurations": {
    toStored: converting(V1BETA2, { from: "nominalConcurrencyShares", to: "assuredConcurrencyShares" }),
    fromStored: converting(V1BETA3, { from: "assuredConcurrencyShares", to: "nominalConcurrencyShares" }),
  },
};
