/**
 * The scale subresource of a custom resource (apiextensions-apiserver's scale REST): an autoscaling/v1 Scale
 * read from and written to the paths the CRD names (specReplicasPath, statusReplicasPath, labelSelectorPath).
 */
import { isNotFound, newBadRequest, newInvalid, newMethodNotSupported, newNotFound, type QualifiedResource } from "../api/errors.ts";
import { isPlainObject, type KubeObject } from "../api/types.ts";
import { checkName } from "../registry/store.ts";
import type { Handler, HandlerContext } from "../server/handlers/context.ts";
import { applyPatchBody, builtInSchemaOf, dropUnchangedResourceVersion, patchMediaType, readPatchBody } from "../server/handlers/patch-body.ts";
import { parseWriteQuery, readObjectBody, type WriteQuery } from "../server/handlers/write-options.ts";
import { newResourceNotFound } from "../server/resource-route.ts";
import { respondObject } from "../server/respond.ts";
import type { ScaleSubresource } from "./crd.ts";

const SCALE_SCHEMA = builtInSchemaOf("autoscaling", "v1", "Scale");

function fieldsOf(path: string): string[] {
  return path.split(".").slice(1);
}

function readPath(obj: unknown, path: string): unknown {
  let current = obj;
  for (const field of fieldsOf(path)) current = isPlainObject(current) ? current[field] : undefined;
  return current;
}

function writePath(obj: Record<string, unknown>, path: string, value: unknown): void {
  const fields = fieldsOf(path);
  let current = obj;
  for (const field of fields.slice(0, -1)) {
    if (!isPlainObject(current[field])) current[field] = {};
    current = current[field] as Record<string, unknown>;
  }
  current[fields[fields.length - 1]] = value;
}

export function customScaleOf(parent: KubeObject, paths: ScaleSubresource): KubeObject {
  const { name, namespace, uid, resourceVersion, creationTimestamp } = parent.metadata;
  const replicas = readPath(parent, paths.specReplicasPath) ?? 0;
  const status: Record<string, unknown> = { replicas: readPath(parent, paths.statusReplicasPath) ?? 0 };
  const selector = paths.labelSelectorPath ? readPath(parent, paths.labelSelectorPath) : undefined;
  if (typeof selector === "string" && selector !== "") status.selector = selector;
  return {
    kind: "Scale",
    apiVersion: "autoscaling/v1",
    metadata: { name, namespace, uid, resourceVersion, creationTimestamp },
    spec: replicas === 0 ? {} : { replicas },
    status,
  };
}

/** The handler of `<plural>/scale`, given the scale paths of each version that has the subresource. */
export function customScaleHandler(pathsByVersion: ReadonlyMap<string, ScaleSubresource>): Handler {
  return async (ctx) => {
    const paths = pathsByVersion.get(ctx.type.version);
    if (!paths) throw newResourceNotFound();
    if (ctx.type.namespaced && ctx.info.namespace === "") throw newResourceNotFound();
    const qualified: QualifiedResource = { group: ctx.type.group, resource: `${ctx.type.resource}/scale` };
    const notFoundAsScale = async <T>(action: () => Promise<T>): Promise<T> => {
      try {
        return await action();
      } catch (e) {
        throw isNotFound(e) ? newNotFound(qualified, ctx.info.name) : e;
      }
    };
    const write = async (change: (scale: KubeObject) => KubeObject, query: WriteQuery) => {
      const { object } = await notFoundAsScale(() =>
        ctx.store.update(ctx.info.namespace, ctx.info.name, (parent) => {
          if (parent === null) throw newNotFound(qualified, ctx.info.name);
          const scale = change(customScaleOf(parent, paths));
          const replicas = (scale.spec as { replicas?: unknown } | undefined)?.replicas ?? 0;
          checkReplicas(replicas, ctx.info.name);
          writePath(parent, paths.specReplicasPath, replicas);
          if (scale.metadata?.resourceVersion) parent.metadata.resourceVersion = scale.metadata.resourceVersion;
          else delete parent.metadata.resourceVersion;
          return parent;
        }, { dryRun: query.dryRun, subresource: "scale", fieldValidation: query.fieldValidation, warnings: ctx.warnings })
      );
      return respondObject(customScaleOf(object, paths), 200, ctx.encode);
    };
    switch (ctx.info.verb) {
      case "get":
        return respondObject(customScaleOf(await notFoundAsScale(() => ctx.store.get(ctx.info.namespace, ctx.info.name)), paths), 200, ctx.encode);
      case "update": {
        const query = parseWriteQuery(ctx.url.searchParams, "UpdateOptions");
        const body = await readObjectBody(scaleContext(ctx), query.fieldValidation);
        checkName(body, ctx.info.name);
        return await write(() => body, query);
      }
      case "patch": {
        const query = parseWriteQuery(ctx.url.searchParams, "PatchOptions");
        const patch = await readPatchBody(ctx, patchMediaType(ctx, SCALE_SCHEMA), query.fieldValidation);
        return await write((scale) => dropUnchangedResourceVersion(scale, applyPatchBody(scale, patch, SCALE_SCHEMA)), query);
      }
      default:
        throw newMethodNotSupported(qualified, ctx.info.verb);
    }
  };
}

/** A Scale body is read as autoscaling/v1 Scale, whatever the parent's kind. */
function scaleContext(ctx: HandlerContext): HandlerContext {
  return { ...ctx, type: { ...ctx.type, group: "autoscaling", version: "v1", kind: "Scale" } };
}

function checkReplicas(replicas: unknown, name: string): void {
  if (typeof replicas !== "number" || !Number.isInteger(replicas)) throw newBadRequest(`spec.replicas must be an integer, got ${JSON.stringify(replicas)}`);
  if (replicas < 0) {
    throw newInvalid({ group: "autoscaling", kind: "Scale" }, name, [
      { type: "FieldValueInvalid", field: "spec.replicas", value: replicas, detail: "must be greater than or equal to 0" },
    ]);
  }
}
