/**
 * The scale subresource (autoscaling/v1 Scale) of deployments, replicasets, statefulsets and
 * replicationcontrollers: GET reads it from the parent, PUT and PATCH change only the parent's spec.replicas
 * (kube's ScaleREST in pkg/registry/apps/*\/storage and core/replicationcontroller/storage).
 */
import { isNotFound, newBadRequest, newInvalid, newMethodNotSupported, newNotFound, type QualifiedResource } from "../../api/errors.ts";
import { isPlainObject, type KubeObject } from "../../api/types.ts";
import { selectorText } from "../../api/printers/_format.ts";
import { checkName } from "../../registry/store.ts";
import { newResourceNotFound } from "../resource-route.ts";
import { respondObject } from "../respond.ts";
import { virtualHandlerKey } from "../virtual-handlers.ts";
import type { Handler, HandlerContext } from "./context.ts";
import { applyPatchBody, builtInSchemaOf, dropUnchangedResourceVersion, patchMediaType, readPatchBody } from "./patch-body.ts";
import { type FieldValidation, parseWriteQuery, readObjectBody, type WriteQuery } from "./write-options.ts";

const SCALE_SCHEMA = builtInSchemaOf("autoscaling", "v1", "Scale");

/** The virtual-handler entries that serve `<resource>/scale`. */
export function scaleHandlers(): [string, Handler][] {
  return [
    [virtualHandlerKey("apps", "deployments", "scale"), handleScale],
    [virtualHandlerKey("apps", "replicasets", "scale"), handleScale],
    [virtualHandlerKey("apps", "statefulsets", "scale"), handleScale],
    [virtualHandlerKey("", "replicationcontrollers", "scale"), handleScale],
  ];
}

function scaleResource(ctx: HandlerContext): QualifiedResource {
  return { group: ctx.type.group, resource: `${ctx.type.resource}/scale` };
}

/** The parent's selector as a label-selector string; a replication controller's is a plain label set. */
function selectorOf(parent: KubeObject): string | undefined {
  const selector = (parent.spec as { selector?: unknown } | undefined)?.selector;
  if (!isPlainObject(selector)) return undefined;
  const asLabelSelector = parent.kind === "ReplicationController" ? { matchLabels: selector as Record<string, string> } : selector;
  return selectorText(asLabelSelector) || undefined;
}

export function scaleOf(parent: KubeObject): KubeObject {
  const { name, namespace, uid, resourceVersion, creationTimestamp } = parent.metadata;
  const replicas = (parent.spec as { replicas?: number } | undefined)?.replicas ?? 0;
  const status: Record<string, unknown> = { replicas: (parent.status as { replicas?: number } | undefined)?.replicas ?? 0 };
  const selector = selectorOf(parent);
  if (selector) status.selector = selector;
  return {
    kind: "Scale",
    apiVersion: "autoscaling/v1",
    metadata: { name, namespace, uid, resourceVersion, creationTimestamp },
    // Scale's spec.replicas is omitempty: zero replicas is an empty spec.
    spec: replicas === 0 ? {} : { replicas },
    status,
  };
}

async function handleScale(ctx: HandlerContext): Promise<Response> {
  if (ctx.type.namespaced && ctx.info.namespace === "") throw newResourceNotFound();
  switch (ctx.info.verb) {
    case "get":
      return respondObject(scaleOf(await withScaleNotFound(ctx, () => ctx.store.get(ctx.info.namespace, ctx.info.name))), 200, ctx.encode);
    case "update":
      return await updateScale(ctx);
    case "patch":
      return await patchScale(ctx);
    default:
      throw newMethodNotSupported(scaleResource(ctx), ctx.info.verb);
  }
}

async function updateScale(ctx: HandlerContext): Promise<Response> {
  const query = parseWriteQuery(ctx.url.searchParams, "UpdateOptions");
  const body = await readScaleBody(ctx, query.fieldValidation);
  checkName(body, ctx.info.name);
  return await writeReplicas(ctx, () => body, query);
}

async function patchScale(ctx: HandlerContext): Promise<Response> {
  const mediaType = patchMediaType(ctx, SCALE_SCHEMA);
  const query = parseWriteQuery(ctx.url.searchParams, "PatchOptions");
  const patch = await readPatchBody(ctx, mediaType, query.fieldValidation);
  return await writeReplicas(ctx, (current) => {
    const patched = applyPatchBody(current, patch, SCALE_SCHEMA);
    checkName(patched, ctx.info.name);
    return dropUnchangedResourceVersion(current, patched);
  }, query);
}

/** Reads a Scale body: it must be autoscaling/v1 Scale (or leave kind and apiVersion out). */
async function readScaleBody(ctx: HandlerContext, validation: FieldValidation): Promise<KubeObject> {
  const scaleCtx = { ...ctx, type: { ...ctx.type, group: "autoscaling", version: "v1", kind: "Scale" } };
  return await readObjectBody(scaleCtx, validation);
}

/** Sets the parent's spec.replicas from the Scale `change` returns; the Scale's resourceVersion, if any, is a precondition. */
async function writeReplicas(ctx: HandlerContext, change: (current: KubeObject) => KubeObject, query: WriteQuery): Promise<Response> {
  const { object } = await withScaleNotFound(ctx, () =>
    ctx.store.update(ctx.info.namespace, ctx.info.name, (parent) => {
      if (parent === null) throw newNotFound(scaleResource(ctx), ctx.info.name);
      const scale = change(scaleOf(parent));
      const replicas = (scale.spec as { replicas?: unknown } | undefined)?.replicas ?? 0;
      checkReplicas(replicas, ctx.info.name);
      parent.spec = { ...(parent.spec as object), replicas };
      const version = scale.metadata?.resourceVersion;
      if (version) parent.metadata.resourceVersion = version;
      else delete parent.metadata.resourceVersion;
      return parent;
    }, { dryRun: query.dryRun, subresource: "scale", fieldValidation: query.fieldValidation, warnings: ctx.warnings }));
  return respondObject(scaleOf(object), 200, ctx.encode);
}

/** kube's ValidateScale. */
function checkReplicas(replicas: unknown, name: string): void {
  if (typeof replicas !== "number" || !Number.isInteger(replicas)) throw newBadRequest(`spec.replicas must be an integer, got ${JSON.stringify(replicas)}`);
  if (replicas < 0) {
    throw newInvalid({ group: "autoscaling", kind: "Scale" }, name, [
      { type: "FieldValueInvalid", field: "spec.replicas", value: replicas, detail: "must be greater than or equal to 0" },
    ]);
  }
}

/** A missing parent reads as a missing `<resource>/scale`, as kube words it. */
async function withScaleNotFound<T>(ctx: HandlerContext, action: () => Promise<T>): Promise<T> {
  try {
    return await action();
  } catch (e) {
    if (isNotFound(e)) throw newNotFound(scaleResource(ctx), ctx.info.name);
    throw e;
  }
}
