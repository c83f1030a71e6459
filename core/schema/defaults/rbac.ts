/** rbac.authorization.k8s.io/v1 defaults (pkg/apis/rbac/v1/defaults.go): API groups of role references and subjects. */
import type { KubeObject } from "../../api/types.ts";
import { defaultString, objectAt, objectsAt } from "./_fields.ts";
import type { KindDefaulters } from "./_registry.ts";

const RBAC_GROUP = "rbac.authorization.k8s.io";

/** User and Group subjects belong to the RBAC group; ServiceAccount subjects to the core group (""). */
function defaultBinding(binding: KubeObject): void {
  const roleRef = objectAt(binding, "roleRef");
  if (roleRef) defaultString(roleRef, "apiGroup", RBAC_GROUP);
  for (const subject of objectsAt(binding, "subjects")) {
    if (subject.kind === "User" || subject.kind === "Group") defaultString(subject, "apiGroup", RBAC_GROUP);
  }
}

export const RBAC_DEFAULTERS: KindDefaulters = {
  group: RBAC_GROUP,
  version: "v1",
  kinds: { RoleBinding: defaultBinding, ClusterRoleBinding: defaultBinding },
};
