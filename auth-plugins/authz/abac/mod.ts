/** ABAC (--authorization-mode=ABAC): the policies of --authorization-policy-file, read once at start. */
import { readFile } from "node:fs/promises";
import { defineAuthorizer } from "../../../plugins/sdk.ts";
import { abacAuthorizer } from "./authorizer.ts";
import { parsePolicyFile } from "./policy.ts";

export default defineAuthorizer(async ({ config, log }) => {
  const path = config.authorizationPolicyFile;
  if (path === "") throw new Error("authorization-mode ABAC's authorization policy file not passed (--authorization-policy-file)");
  const policies = parsePolicyFile(await readFile(path, "utf8"), path);
  log.info(`${policies.length} policies read from ${path}`);
  return abacAuthorizer(policies);
});
