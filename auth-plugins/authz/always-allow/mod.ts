/** AlwaysAllow: every request is allowed (kube's --authorization-mode=AlwaysAllow). */
import { defineAuthorizer, type PolicyRule } from "../../../plugins/sdk.ts";

/** alwaysAllowAuthorizer.RulesFor: every verb on every resource and every path, and nothing more to find. */
const EVERYTHING: PolicyRule[] = [{ verbs: ["*"], apiGroups: ["*"], resources: ["*"] }, { verbs: ["*"], nonResourceURLs: ["*"] }];

export default defineAuthorizer(() => ({
  authorize: () => ({ decision: "Allow" }),
  rulesFor: () => Promise.resolve({ rules: EVERYTHING, incomplete: false, errors: [] }),
}));
