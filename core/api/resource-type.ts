/** What the server knows about one served resource type: enough for routing, discovery and storage keys. */

export interface SubresourceType {
  /** e.g. "status", "scale", "binding", "eviction", "log", "token", "finalize". */
  name: string;
  /** Kind of the subresource's body, e.g. "Scale" for scale, the parent's kind for status. */
  kind: string;
  /** Group/version of that kind when it differs from the parent's (Scale is autoscaling/v1). */
  group?: string;
  version?: string;
  /** Discovery verbs, kube's names: get, update, patch, create. */
  verbs: string[];
}

export interface ResourceType {
  group: string;
  version: string;
  /** Plural, lower case: "pods". */
  resource: string;
  singularName: string;
  kind: string;
  listKind: string;
  namespaced: boolean;
  shortNames: string[];
  categories: string[];
  /** Discovery verbs of the main resource, kube's names: create, delete, deletecollection, get, list, patch, update, watch. */
  verbs: string[];
  subresources: SubresourceType[];
  /** DELETE answers the deleted object instead of a Status: the 200 response kube 1.26's OpenAPI documents (ReturnDeletedObject). */
  deleteReturnsObject?: true;
  /** Discovery's storageVersionHash (hash of the stored group/version/kind); absent for virtual types such as reviews and bindings. */
  storageVersionHash?: string;
}
