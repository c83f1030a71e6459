/**
 * Open watches by what they watch, for the write work estimate (kube's watchTracker, watch_tracker.go): a watch
 * is filed under its group, resource, namespace and name, and a write reaches the watches of its whole resource,
 * of its namespace and of its object.
 */
import type { EstimatedRequest } from "./work-estimate.ts";

export interface WatchedScope {
  apiGroup: string;
  resource: string;
  namespace: string;
  name: string;
}

const scopeKey = (scope: WatchedScope) => `${scope.apiGroup}\0${scope.resource}\0${scope.namespace}\0${scope.name}`;

export class WatchCounts {
  readonly #counts = new Map<string, number>();

  /** Files one watch; the returned function forgets it (once). */
  register(scope: WatchedScope): () => void {
    const key = scopeKey(scope);
    this.#counts.set(key, (this.#counts.get(key) ?? 0) + 1);
    let forgotten = false;
    return () => {
      if (forgotten) return;
      forgotten = true;
      const left = (this.#counts.get(key) ?? 1) - 1;
      if (left > 0) this.#counts.set(key, left);
      else this.#counts.delete(key);
    };
  }

  /** kube's GetInterestedWatchCount. */
  interested(request: EstimatedRequest): number {
    const scope = { apiGroup: request.apiGroup, resource: request.resource, namespace: "", name: "" };
    let count = this.#counts.get(scopeKey(scope)) ?? 0;
    if (request.namespace !== "") {
      scope.namespace = request.namespace;
      count += this.#counts.get(scopeKey(scope)) ?? 0;
    }
    if (request.name !== "") {
      scope.name = request.name;
      count += this.#counts.get(scopeKey(scope)) ?? 0;
    }
    return count;
  }
}
