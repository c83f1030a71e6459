import { expect, test } from "bun:test";
import { buildAuthorization } from "./authorization.ts";
import type { Attributes } from "./authorizer.ts";
import type { PluginContext } from "./plugin-context.ts";

/** A non-resource request (every resource attribute empty): the privileged group is allowed paths as well. */
const request = (groups: string[]): Attributes => ({
  ...Object.fromEntries(["apiGroup", "apiVersion", "namespace", "resource", "subresource", "name"].map((key) => [key, ""])),
  user: { username: "u", groups },
  verb: "get",
  isResourceRequest: false,
  path: "/metrics",
} as Attributes);

const undecided = () => ({
  authorize: () => ({ decision: "NoOpinion" as const, reason: "Everything is forbidden." }),
  rulesFor: () => Promise.resolve({ rules: [], incomplete: false, errors: [] }),
});

test("buildAuthorization() (kube's AuthorizeClientBearerToken union): system:masters is allowed before any mode is asked; others get the modes' answer", async () => {
  const authorizer = await buildAuthorization([undecided], {} as PluginContext);
  expect(await authorizer.authorize(request(["system:masters"]))).toEqual({ decision: "Allow" });
  expect(await authorizer.authorize(request(["devs"]))).toEqual({ decision: "NoOpinion", reason: "Everything is forbidden." });
});

test("buildAuthorization(): the privileged group resolves no rules, so the modes' complete listing stays complete", async () => {
  const authorizer = await buildAuthorization([undecided], {} as PluginContext);
  expect(await authorizer.rulesFor!({ username: "admin", groups: ["system:masters"] }, "default")).toEqual({
    rules: [],
    incomplete: false,
    errors: [],
  });
});
