/** What every resource handler receives: the parsed request, its resource type and store, and shared services. */
import type { Authentication } from "../../auth/authentication.ts";
import type { Authorizer } from "../../auth/authorizer.ts";
import type { UserInfo } from "../../auth/user.ts";
import type { ResourceType } from "../../api/resource-type.ts";
import type { ResourceStore } from "../../registry/store.ts";
import type { Storage } from "../../storage/storage.ts";
import type { WatchBroker } from "../../watch/mod.ts";
import type { RequestInfo } from "../request-info.ts";
import type { EncodeOptions } from "../respond.ts";

export interface HandlerContext {
  request: Request;
  url: URL;
  info: RequestInfo;
  type: ResourceType;
  store: ResourceStore;
  encode: EncodeOptions;
  /** The store of this resource's collection: the revision sequence its resourceVersions are compared with. */
  storage: Storage;
  broker: WatchBroker;
  /** Warning header values (code 299) collected while handling the request. */
  warnings: string[];
  /** Hands the decoded request body to the audit (kube's LogRequestObject / LogRequestPatch); absent when not audited. */
  logRequestObject?: (object: unknown) => void;
  /** Audit annotations admission adds while handling the request. */
  auditAnnotations: Map<string, string>;
  user: UserInfo;
  services: ServerServices;
}

/** Server-wide services some handlers need beyond the store. */
export interface ServerServices {
  authentication: Authentication;
  authorizer: Authorizer;
  /** --min-request-timeout: the floor of a watch's randomized timeout. */
  minRequestTimeoutSeconds: number;
  /** The RemainingItemCount gate: whether a paged list reports how many items are left. */
  remainingItemCount: boolean;
}

/** A handler may answer at once, without a promise, when nothing it calls waits. */
export type Handler = (ctx: HandlerContext) => Response | Promise<Response>;
