/** AlwaysAllow: every request is allowed (kube's --authorization-mode=AlwaysAllow). */
import { defineAuthorizer } from "../../../plugins/sdk.ts";

export default defineAuthorizer(() => ({ authorize: () => ({ decision: "Allow" }) }));
