/**
 * AlwaysDeny (kube's --authorization-mode=AlwaysDeny): alwaysDenyAuthorizer.Authorize has no opinion, so an authorizer
 * after it in the mode list still decides; alone it leaves every request forbidden with its reason.
 */
import { defineAuthorizer } from "../../../plugins/sdk.ts";

export default defineAuthorizer(() => ({
  authorize: () => ({ decision: "NoOpinion", reason: "Everything is forbidden." }),
  // alwaysDenyAuthorizer.RulesFor: no rules, and the list is complete.
  rulesFor: () => Promise.resolve({ rules: [], incomplete: false, errors: [] }),
}));
