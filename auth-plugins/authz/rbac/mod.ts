/** RBAC (--authorization-mode=RBAC): decisions from an in-memory index of the RBAC objects, kept current by watching them. */
import { PolicyIndex } from "../../../core/auth/rbac/policy-index.ts";
import { defineAuthorizer } from "../../../plugins/sdk.ts";
import { rbacAuthorizer } from "./authorizer.ts";
import { syncPolicyIndex } from "./policy-sync.ts";

export default defineAuthorizer(async (context) => {
  const index = new PolicyIndex();
  await syncPolicyIndex(context.client, index);
  return rbacAuthorizer(index);
});
export { rbacAuthorizer } from "./authorizer.ts";
