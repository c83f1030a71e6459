/**
 * The scale subresource (autoscaling/v1 Scale) of any parent: GET reads it from the parent, PUT and PATCH change only
 * the parent's replica count (kube's ScaleREST). Built-in workloads and custom resources differ only in where the
 * parent keeps its replicas and selector, which a ScaleAccess says.
 */
import { isNotFound, newBadRequest, newInvalid, newMethodNotSupported, newNotFound, type QualifiedResource } from "../../api/errors.ts";
import type { Printer } from "../../api/printers/mod.ts";
import { goMarshal } from "../../api/go-values.ts";
import type { KubeObject } from "../../api/types.ts";
import type { ResourceType } from "../../api/resource-type.ts";
import { checkFields } from "../../schema/field-check.ts";
import { checkName } from "../../registry/subresource-writes.ts";
import { newResourceNotFound } from "../resource-route.ts";
import { respondObject } from "../respond.ts";
import type { Handler, HandlerContext } from "./context.ts";
import { APPLY_PATCH, applyPatchBody, builtInSchemaOf, patchMediaType } from "./patch-body.ts";
import { readPatchBody } from "./patch-decode.ts";
import { reportPatchStrictErrors } from "./patch-strict.ts";
import { checkPatchedObject } from "./patch-type-errors.ts";
import { type FieldValidation, parsePatchQuery, parseWriteQuery, readObjectBody, type WriteQuery } from "./write-options.ts";

const SCALE_SCHEMA = builtInSchemaOf("autoscaling", "v1", "Scale");

/** Where a parent keeps what its Scale shows, and how a new replica count is written back. */
export interface ScaleAccess {
  specReplicas(parent: KubeObject): unknown;
  statusReplicas(parent: KubeObject): unknown;
  /** The label-selector string, or undefined when the parent has none. */
  selector(parent: KubeObject): string | undefined;
  setSpecReplicas(parent: KubeObject, replicas: number): void;
}

export function scaleOf(parent: KubeObject, access: ScaleAccess): KubeObject {
  const { name, namespace, uid, resourceVersion, creationTimestamp } = parent.metadata;
  const replicas = access.specReplicas(parent) ?? 0;
  const status: Record<string, unknown> = { replicas: access.statusReplicas(parent) ?? 0 };
  const selector = access.selector(parent);
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

/**
 * The handler of `<resource>/scale`; `accessOf` may throw (e.g. 404 for a version without the subresource). A GET
 * asking for a Table prints the Scale with `printer`, or with the parent's printer when none is given.
 */
export function scaleSubresourceHandler(accessOf: (ctx: HandlerContext) => ScaleAccess, printer?: Printer): Handler {
  return async (ctx) => {
    const access = accessOf(ctx);
    if (ctx.type.namespaced && ctx.info.namespace === "") throw newResourceNotFound();
    switch (ctx.info.verb) {
      case "get":
        return respondObject(
          scaleOf(await withScaleNotFound(ctx, () => ctx.store.get(ctx.info.namespace, ctx.info.name)), access),
          200,
          printer ? { ...ctx.encode, printer } : ctx.encode,
        );
      case "update":
        return await updateScale(ctx, access);
      case "patch":
        return await patchScale(ctx, access);
      default:
        throw newMethodNotSupported(scaleResource(ctx), ctx.info.verb);
    }
  };
}

function scaleResource(ctx: HandlerContext): QualifiedResource {
  return { group: ctx.type.group, resource: `${ctx.type.resource}/scale` };
}

async function updateScale(ctx: HandlerContext, access: ScaleAccess): Promise<Response> {
  const query = parseWriteQuery(ctx.url.searchParams, "UpdateOptions");
  const body = await readScaleBody(ctx, query.fieldValidation);
  checkName(body, ctx.info.name, ctx.info.namespace);
  return await writeReplicas(ctx, access, () => body, query);
}

async function patchScale(ctx: HandlerContext, access: ScaleAccess): Promise<Response> {
  // The patch types are the parent's (crdHandler serves a custom resource's scale with the custom resource's types).
  const mediaType = patchMediaType(ctx, builtInSchemaOf(ctx.type.group, ctx.type.version, ctx.type.kind));
  const query = parsePatchQuery(ctx.url.searchParams, mediaType === APPLY_PATCH);
  const patch = await readPatchBody(ctx, mediaType, query.fieldValidation);
  const scaleType = scaleTypeOf(ctx);
  return await writeReplicas(ctx, access, (current) => {
    // As for any patch, the patched Scale is decoded: values its Go types cannot hold, then its unknown fields.
    const patched = applyPatchBody(current, patch, SCALE_SCHEMA);
    checkPatchedObject(scaleType, patched, mediaType, patch.value);
    const { unknownFields } = checkFields(scaleType, patched);
    const patchedJson = () => goMarshal(applyPatchBody(current, patch, SCALE_SCHEMA));
    reportPatchStrictErrors(patch, patchedJson, unknownFields, query.fieldValidation, ctx.warnings);
    checkName(patched, ctx.info.name, ctx.info.namespace);
    return patched;
  }, query);
}

/** The subresource's own type: autoscaling/v1 Scale, whatever the parent's kind. */
function scaleTypeOf(ctx: HandlerContext): ResourceType {
  return { ...ctx.type, group: "autoscaling", version: "v1", kind: "Scale" };
}

/** Reads a Scale body: it must be autoscaling/v1 Scale (or leave kind and apiVersion out), whatever the parent's kind. */
async function readScaleBody(ctx: HandlerContext, validation: FieldValidation): Promise<KubeObject> {
  return await readObjectBody({ ...ctx, type: scaleTypeOf(ctx) }, validation);
}

/** Sets the parent's replicas from the Scale `change` returns; the Scale's resourceVersion, if any, is a precondition. */
async function writeReplicas(
  ctx: HandlerContext,
  access: ScaleAccess,
  change: (current: KubeObject) => KubeObject,
  query: WriteQuery,
): Promise<Response> {
  const { object } = await withScaleNotFound(ctx, () =>
    ctx.store.update(ctx.info.namespace, ctx.info.name, (parent) => {
      if (parent === null) throw newNotFound(scaleResource(ctx), ctx.info.name);
      const scale = change(scaleOf(parent, access));
      const replicas = (scale.spec as { replicas?: unknown } | undefined)?.replicas ?? 0;
      checkReplicas(replicas, ctx.info.name);
      access.setSpecReplicas(parent, replicas);
      const version = scale.metadata?.resourceVersion;
      if (version) parent.metadata.resourceVersion = version;
      else delete parent.metadata.resourceVersion;
      return parent;
    }, { dryRun: query.dryRun, subresource: "scale", fieldValidation: query.fieldValidation, warnings: ctx.warnings }));
  return respondObject(scaleOf(object, access), 200, ctx.encode);
}

/** kube's ValidateScale. */
function checkReplicas(replicas: unknown, name: string): asserts replicas is number {
  if (typeof replicas !== "number" || !Number.isInteger(replicas)) {
    throw newBadRequest(`spec.replicas must be an integer, got ${JSON.stringify(replicas)}`);
  }
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
