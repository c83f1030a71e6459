/** AlwaysDeny: every request is denied (kube's --authorization-mode=AlwaysDeny). */
import { defineAuthorizer } from "../../../plugins/sdk.ts";

export default defineAuthorizer(() => ({ authorize: () => Promise.resolve({ decision: "Deny", reason: "Everything is forbidden." }) }));
