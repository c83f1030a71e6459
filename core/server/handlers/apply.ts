/**
 * Server-side apply: PATCH with application/apply-patch+yaml (spec 4.6). Creates the object when it is
 * missing; a resourceVersion in the configuration is a precondition; conflicts answer 409 unless force=true.
 */
import { decodeBody } from "../../api/decode-body.ts";
import { newBadRequest, newUnknownError, StatusError } from "../../api/errors.ts";
import { goCannotUnmarshal } from "../../api/go-values.ts";
import { apiVersionOf, isPlainObject, type KubeObject } from "../../api/types.ts";
import { applyConfiguration, SchemaMismatchError, VersionConversionError } from "../../apply/ssa/mod.ts";
import { nowTimestamp, reconcileNamespace } from "../../registry/object-meta.ts";
import { checkBodyName, checkName } from "../../registry/subresource-writes.ts";
import { attributesOf, authorizeRequest } from "../filters/authorization.ts";
import { respondObject } from "../respond.ts";
import type { HandlerContext } from "./context.ts";
import { hasLargeBody, parsePatchQuery, reportDuplicates } from "./write-options.ts";
import { requestBytes } from "../../runtime/fetch-adapter.ts";

const APPLY_MEDIA_TYPE = "application/apply-patch+yaml";

export async function handleApply(ctx: HandlerContext): Promise<Response> {
  const query = parsePatchQuery(ctx.url.searchParams, true);
  const manager = query.fieldManager ?? "";
  const force = query.force;
  const { config, unnamed } = await readConfiguration(ctx, query.fieldValidation);
  const scope = ctx.store.ownershipScope(ctx.info.subresource);
  let created = false;
  const { object } = await ctx.store.update(ctx.info.namespace, ctx.info.name, async (current) => {
    created = current === null;
    // kube's patcher creates from the configuration alone, so a nameless one fails its checkName (400) before the
    // create is authorized; an existing object keeps its own name.
    if (created && unnamed) checkName({ metadata: {} } as KubeObject, ctx.info.name, ctx.info.namespace);
    // Apply that creates needs create as well as patch (spec 4.6.4; kube's withAuthorization on the create path).
    if (created) await authorizeRequest(ctx.services.authorizer, attributesOf({ ...ctx.info, verb: "create" }, ctx.user));
    // The applied object keeps the resourceVersion it was applied onto unless the configuration sets one, which is
    // then a precondition; on a conflict the store applies again to the newer object.
    return applyOrExplain(current, config, { manager, force, now: nowTimestamp() }, scope, ctx);
  }, {
    dryRun: query.dryRun,
    subresource: ctx.info.subresource,
    fieldValidation: query.fieldValidation,
    largeBody: hasLargeBody(ctx),
    warnings: ctx.warnings,
    user: ctx.user,
    auditAnnotations: ctx.auditAnnotations,
    fieldManager: manager,
    applied: true,
    forceAllowCreate: true,
  });
  return respondObject(object, created ? 201 : 200, ctx.encode);
}

/** applyPatcher.applyPatchToCurrentObject's prefix for what sigs.k8s.io/yaml.Unmarshal says of the body. */
const DECODE_FAILED = "error decoding YAML: ";

/**
 * The body unmarshalled into applyPatcher's map[string]interface{}: null (also a blank body) leaves the map empty, so
 * the version check speaks next; any other value that is not an object is encoding/json's error, as yaml.Unmarshal
 * wraps it.
 */
function appliedObject(value: unknown): KubeObject {
  if (value === null) return {} as KubeObject;
  if (!isPlainObject(value)) {
    throw newBadRequest(
      `${DECODE_FAILED}error unmarshaling JSON: while decoding JSON: ${goCannotUnmarshal(value, "map[string]interface {}")}`,
    );
  }
  return value as KubeObject;
}

/**
 * The applied configuration: an object of this endpoint's version, without managedFields (kube's checks, in its
 * words), named from the URL; `unnamed` when the configuration itself gave no name.
 */
async function readConfiguration(
  ctx: HandlerContext,
  validation: "Ignore" | "Warn" | "Strict",
): Promise<{ config: KubeObject; unnamed: boolean }> {
  const bytes = await requestBytes(ctx.request);
  const { value, duplicateFields } = await decodeBody(bytes, APPLY_MEDIA_TYPE, {
    accepted: [APPLY_MEDIA_TYPE],
    syntaxError: (message) => newBadRequest(`${DECODE_FAILED}${message}`),
  });
  reportDuplicates(ctx, duplicateFields, validation);
  ctx.logRequestObject?.(value);
  const config = appliedObject(value);
  const expected = apiVersionOf(ctx.type.group, ctx.type.version);
  if (config.apiVersion !== expected) {
    throw newBadRequest(
      `Incorrect version specified in apply patch. Specified patch version: ${String(config.apiVersion ?? "")}, expected: ${expected}`,
    );
  }
  if (config.kind !== ctx.type.kind) {
    throw newBadRequest(
      `Incorrect kind specified in apply patch. Specified patch kind: ${String(config.kind ?? "")}, expected: ${ctx.type.kind}`,
    );
  }
  if (!isPlainObject(config.metadata)) config.metadata = {};
  if (config.metadata.managedFields !== undefined) throw newBadRequest("metadata.managedFields must be nil");
  checkBodyName(config, ctx.info.name);
  const unnamed = config.metadata.name === undefined || config.metadata.name === null || config.metadata.name === "";
  config.metadata.name = ctx.info.name;
  if (ctx.type.namespaced) reconcileNamespace(config.metadata, ctx.info.namespace, true);
  return { config, unnamed };
}

/**
 * A configuration that does not fit the kind's schema fails as kube's typed conversion does, and a conversion of
 * the objects to a manager's version fails with the converter's message (errors without a reason: ErrorToAPIStatus).
 */
async function applyOrExplain(
  current: KubeObject | null,
  config: KubeObject,
  request: Parameters<typeof applyConfiguration>[2],
  scope: Parameters<typeof applyConfiguration>[3],
  ctx: HandlerContext,
): Promise<KubeObject> {
  try {
    return await applyConfiguration(current, config, request, scope);
  } catch (e) {
    if (e instanceof VersionConversionError) throw newUnknownError(e.message);
    if (!(e instanceof SchemaMismatchError)) throw e;
    const gvk = `${apiVersionOf(ctx.type.group, ctx.type.version)}, Kind=${ctx.type.kind}`;
    throw new StatusError(500, "", `failed to create typed patch object (${ctx.info.namespace}/${ctx.info.name}; ${gvk}): ${e.message}`);
  }
}
