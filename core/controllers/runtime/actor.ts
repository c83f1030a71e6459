/** A controller's StoreActor: its identity (identity.ts) and the server's authorizer chain, as an HTTP request meets it. */
import { type Authorizer, newAuthorizationForbidden } from "../../auth/authorizer.ts";
import type { UserInfo } from "../../auth/user.ts";
import type { StoreActor } from "../../registry/actor.ts";
import { controllerUser } from "./identity.ts";

export function controllerActor(name: string, authorizer: Authorizer): StoreActor {
  return userActor(controllerUser(name), authorizer);
}

/** Any in-process client's StoreActor (the controller manager's own client included). */
export function userActor(user: UserInfo, authorizer: Authorizer): StoreActor {
  return {
    user,
    async authorize(type, request) {
      const attributes = {
        user,
        isResourceRequest: true,
        path: "",
        apiGroup: type.group,
        apiVersion: type.version,
        resource: type.resource,
        ...request,
      };
      const result = await authorizer.authorize(attributes);
      if (result.decision !== "Allow") throw newAuthorizationForbidden(attributes, result.reason);
    },
  };
}
