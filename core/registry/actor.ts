/**
 * Who writes through a store when the caller is an in-process API client (a controller) rather than an HTTP
 * request: its identity, and the authorization check its requests pass. The store authorizes each write with
 * the verb kube's request info would give it and hands the identity to admission, so a controller's writes
 * are authorized and admitted exactly as a user's are (kube's controllers are API clients).
 */
import type { UserInfo } from "../auth/user.ts";

/** What is authorized: kube's authorizer.Attributes of a resource request, less the user and type. */
export interface ActorRequest {
  verb: "create" | "update" | "patch" | "delete" | "get" | "list";
  namespace: string;
  name: string;
  subresource: string;
}

export interface StoreActor {
  user: UserInfo;
  /** Throws kube's 403 when the actor may not make the request on the resource. */
  authorize(resource: { group: string; version: string; resource: string }, request: ActorRequest): Promise<void>;
}
