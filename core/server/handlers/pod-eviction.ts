/**
 * POST pods/<name>/eviction with a policy/v1 or policy/v1beta1 Eviction (kube's EvictionREST.Create in
 * pkg/registry/core/pod/storage/eviction.go): terminal, pending or already deleting pods are deleted at once;
 * otherwise the pod's one PodDisruptionBudget must allow a disruption (checkAndDecrement, 429 with a
 * DisruptionBudget cause when not), the eviction is recorded in the budget's status.disruptedPods and the pod is
 * deleted with the Eviction's deleteOptions. dryRun (query or deleteOptions) changes nothing.
 */
import { decodeBody } from "../../api/decode-body.ts";
import { isConflict, newBadRequest, newMethodNotSupported } from "../../api/errors.ts";
import { isPlainObject, type KubeObject } from "../../api/types.ts";
import type { PdbStatus } from "../../controllers/mod.ts";
import { isPodReady, podPhase } from "../../controllers/workloads/mod.ts";
import type { DeleteOptions } from "../../registry/store-options.ts";
import type { ResourceStore } from "../../registry/store.ts";
import { newResourceNotFound } from "../resource-route.ts";
import { respondPlain } from "../respond.ts";
import { virtualHandlerKey } from "../virtual-handlers.ts";
import type { Handler, HandlerContext } from "./context.ts";
import { budgetsFor, canIgnorePdb, decremented, stillProcessing, withResourceVersion } from "./eviction-budget.ts";
import { parseDryRun } from "./write-options.ts";

const EVICTION_VERSIONS = new Set(["policy/v1", "policy/v1beta1"]);

async function readEviction(ctx: HandlerContext): Promise<KubeObject & { deleteOptions?: Record<string, unknown> }> {
  const { value } = await decodeBody(new Uint8Array(await ctx.request.arrayBuffer()), ctx.request.headers.get("content-type"), {
    accepted: ["application/json", "application/yaml"],
    kind: "Eviction",
  });
  if (!isPlainObject(value)) throw newBadRequest("the body of the request must be a JSON or YAML object");
  const apiVersion = value.apiVersion === undefined ? "policy/v1" : String(value.apiVersion);
  // kube's GroupVersionAcceptor takes both versions.
  if (!EVICTION_VERSIONS.has(apiVersion)) {
    throw newBadRequest(`the API version in the data (${apiVersion}) does not match the expected API version (policy/v1)`);
  }
  if (value.kind !== undefined && value.kind !== "Eviction") {
    throw newBadRequest(
      `${String(value.kind)} in version "${
        apiVersion.split("/").pop()
      }" cannot be handled as a Eviction: the kind of the body is not Eviction`,
    );
  }
  return value as KubeObject;
}

function deleteOptionsOf(eviction: { deleteOptions?: Record<string, unknown> }, queryDryRun: boolean, ctx: HandlerContext): DeleteOptions {
  const options = isPlainObject(eviction.deleteOptions) ? eviction.deleteOptions : {};
  const grace = options.gracePeriodSeconds;
  return {
    // propagateDryRun: the request's dryRun and the content's are one setting.
    dryRun: queryDryRun || (Array.isArray(options.dryRun) && options.dryRun.includes("All")),
    gracePeriodSeconds: typeof grace === "number" ? Math.max(0, grace) : undefined,
    preconditions: isPlainObject(options.preconditions) ? options.preconditions as DeleteOptions["preconditions"] : undefined,
    propagationPolicy: options.propagationPolicy as DeleteOptions["propagationPolicy"],
    user: ctx.user,
  };
}

function success(ctx: HandlerContext): Response {
  return respondPlain({ kind: "Status", apiVersion: "v1", metadata: {}, status: "Success", code: 201 }, 201, ctx.encode);
}

function podEvictionHandler(pdbs: ResourceStore): Handler {
  return async (ctx: HandlerContext) => {
    if (ctx.info.namespace === "") throw newResourceNotFound();
    if (ctx.info.verb !== "create") throw newMethodNotSupported({ group: "", resource: "pods/eviction" }, ctx.info.verb);
    const { namespace, name } = ctx.info;
    const eviction = await readEviction(ctx);
    if (eviction.metadata?.name !== name) throw newBadRequest("name in URL does not match name in Eviction object");
    const options = deleteOptionsOf(eviction, parseDryRun(ctx.url.searchParams, "CreateOptions"), ctx);
    // kube's create handler admits the Eviction (NodeRestriction lets a node evict only its own pods).
    await ctx.store.admitSubresourceCreate("eviction", namespace, name, eviction, ctx.user, ctx.warnings, options.dryRun);
    const pod = await ctx.store.get(namespace, name);
    if (canIgnorePdb(pod)) {
      const terminal = ["Succeeded", "Failed"].includes(podPhase(pod)) || pod.metadata.deletionTimestamp !== undefined;
      await ctx.store.delete(namespace, name, terminal ? options : withResourceVersion(options, pod));
      return success(ctx);
    }
    const budgets = await budgetsFor(pdbs, pod);
    if (budgets.length > 1) {
      const status = {
        kind: "Status",
        apiVersion: "v1",
        metadata: {},
        status: "Failure",
        message: "This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.",
        code: 500,
      };
      return respondPlain(status, 500, ctx.encode);
    }
    let deleteOptions = options;
    const pdb = budgets[0];
    if (pdb) {
      const status = (pdb.status ?? {}) as Partial<PdbStatus>;
      const desired = status.desiredHealthy ?? 0;
      if (!isPodReady(pod) && (status.currentHealthy ?? 0) >= desired && desired > 0) {
        // An unready pod does not count toward healthy: delete it, unless it became ready meanwhile.
        deleteOptions = withResourceVersion(options, pod);
      } else if (options.dryRun) {
        decremented(await pdbs.get(namespace, String(pdb.metadata.name)), name, true);
      } else {
        // kube's EvictionREST.Create retries the budget's check and decrement on a conflict (retry.RetryOnConflict),
        // reading the budget afresh: without a resourceVersion the store retries rather than answering 409.
        await pdbs.update(namespace, String(pdb.metadata.name), (latest) => {
          const { resourceVersion: _, ...metadata } = latest!.metadata;
          return { ...latest!, metadata, status: decremented(latest!, name, false) };
        }, { subresource: "status" });
      }
    }
    try {
      await ctx.store.delete(namespace, name, deleteOptions);
    } catch (error) {
      const addedPrecondition = deleteOptions !== options;
      if (pdb && addedPrecondition && isConflict(error)) throw stillProcessing(String(pdb.metadata.name));
      throw error;
    }
    return success(ctx);
  };
}

export function podEvictionHandlers(pdbs: ResourceStore): [string, Handler][] {
  return [[virtualHandlerKey("", "pods", "eviction"), podEvictionHandler(pdbs)]];
}
