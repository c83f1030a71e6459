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
import type { DeleteOptions } from "../../registry/store-options.ts";
import type { ResourceStore } from "../../registry/store.ts";
import { newResourceNotFound } from "../resource-route.ts";
import { respondPlain } from "../respond.ts";
import { virtualHandlerKey } from "../virtual-handlers.ts";
import type { Handler, HandlerContext } from "./context.ts";
import { planEviction, stillProcessing } from "./eviction-budget.ts";
import { parseDryRun } from "./write-options.ts";
import { requestBytes } from "../../runtime/fetch-adapter.ts";

const EVICTION_VERSIONS = new Set(["policy/v1", "policy/v1beta1"]);
const MORE_THAN_ONE_BUDGET = {
  kind: "Status",
  apiVersion: "v1",
  metadata: {},
  status: "Failure",
  message: "This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.",
  code: 500,
};

async function readEviction(ctx: HandlerContext): Promise<KubeObject & { deleteOptions?: Record<string, unknown> }> {
  const { value } = await decodeBody(await requestBytes(ctx.request), ctx.request.headers.get("content-type"), {
    accepted: ["application/json", "application/yaml"],
    kind: "Eviction",
  });
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
    // A negative grace period reaches the pod's delete as asked; rest.BeforeDelete makes it 1 second.
    gracePeriodSeconds: typeof grace === "number" ? grace : undefined,
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
    const plan = await planEviction(ctx.store, pdbs, namespace, name, options);
    if ("moreThanOneBudget" in plan) return respondPlain(MORE_THAN_ONE_BUDGET, 500, ctx.encode);
    const { deleteOptions, pdbName } = plan;
    try {
      await ctx.store.delete(namespace, name, deleteOptions);
    } catch (error) {
      if (pdbName !== undefined && isConflict(error)) throw stillProcessing(pdbName);
      throw error;
    }
    return success(ctx);
  };
}

export function podEvictionHandlers(pdbs: ResourceStore): [string, Handler][] {
  return [[virtualHandlerKey("", "pods", "eviction"), podEvictionHandler(pdbs)]];
}
