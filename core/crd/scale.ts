/**
 * The scale subresource of a custom resource (apiextensions-apiserver's scale REST): an autoscaling/v1 Scale
 * read from and written to the paths the CRD names (specReplicasPath, statusReplicasPath, labelSelectorPath).
 */
import { isPlainObject } from "../api/types.ts";
import type { Handler } from "../server/handlers/context.ts";
import { type ScaleAccess, scaleSubresourceHandler } from "../server/handlers/scale-subresource.ts";
import { newResourceNotFound } from "../server/resource-route.ts";
import type { ScaleSubresource } from "./crd.ts";

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

function pathScaleAccess(paths: ScaleSubresource): ScaleAccess {
  return {
    specReplicas: (parent) => readPath(parent, paths.specReplicasPath),
    statusReplicas: (parent) => readPath(parent, paths.statusReplicasPath),
    selector: (parent) => {
      const selector = paths.labelSelectorPath ? readPath(parent, paths.labelSelectorPath) : undefined;
      return typeof selector === "string" && selector !== "" ? selector : undefined;
    },
    setSpecReplicas: (parent, replicas) => writePath(parent, paths.specReplicasPath, replicas),
  };
}

/** The handler of `<plural>/scale`, given the scale paths of each version that has the subresource. */
export function customScaleHandler(pathsByVersion: ReadonlyMap<string, ScaleSubresource>): Handler {
  const accessByVersion = new Map([...pathsByVersion].map(([version, paths]) => [version, pathScaleAccess(paths)]));
  return scaleSubresourceHandler((ctx) => {
    const access = accessByVersion.get(ctx.type.version);
    if (!access) throw newResourceNotFound();
    return access;
  });
}
