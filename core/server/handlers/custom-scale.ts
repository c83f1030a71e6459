/**
 * The scale subresource of a custom resource (apiextensions-apiserver's scale REST): an autoscaling/v1 Scale
 * read from and written to the paths the CRD names (specReplicasPath, statusReplicasPath, labelSelectorPath).
 */
import { isPlainObject } from "../../api/types.ts";
import type { ScaleSubresource, ScaleSubresources } from "../../crd/mod.ts";
import type { Handler } from "./context.ts";
import { type ScaleAccess, scaleSubresourceHandler } from "./scale-subresource.ts";
import { newResourceNotFound } from "../resource-route.ts";
import { virtualHandlerKey } from "../virtual-handlers.ts";

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
function customScaleHandler(pathsByVersion: ReadonlyMap<string, ScaleSubresource>): Handler {
  const accessByVersion = new Map([...pathsByVersion].map(([version, paths]) => [version, pathScaleAccess(paths)]));
  return scaleSubresourceHandler((ctx) => {
    const access = accessByVersion.get(ctx.type.version);
    if (!access) throw newResourceNotFound();
    return access;
  });
}

/** Custom resources' scale subresources served as `<plural>/scale` handlers among the server's handlers. */
export function customScaleHandlers(handlers: Map<string, Handler>): ScaleSubresources {
  return {
    set: (group, plural, pathsByVersion) => handlers.set(virtualHandlerKey(group, plural, "scale"), customScaleHandler(pathsByVersion)),
    delete: (group, plural) => handlers.delete(virtualHandlerKey(group, plural, "scale")),
  };
}
