/**
 * The access review kinds (spec 2.11): created with POST, answered by the configured authorizer chain with
 * 201, never stored. SelfSubjectRulesReview lists what the chain's rule resolvers know of the user's rules.
 */
import { newBadRequest, newMethodNotSupported } from "../../api/errors.ts";
import { apiVersionOf, type KubeObject } from "../../api/types.ts";
import type { Authorizer } from "../../auth/authorizer.ts";
import { withGoZeroValues } from "../../schema/go-zero-values.ts";
import { respondObject } from "../respond.ts";
import { virtualHandlerKey } from "../virtual-handlers.ts";
import { reviewAttributes, reviewedUser, type ReviewKind, specOf, validateReview } from "./access-review-spec.ts";
import type { Handler, HandlerContext } from "./context.ts";
import { parseWriteQuery, readObjectBody } from "./write-options.ts";

const GROUP = "authorization.k8s.io";

/**
 * The review as kube decodes it: into the endpoint's Go type (the path's kind when the body names none), so the
 * answer carries kind, apiVersion and the type's zero values (`metadata: {creationTimestamp: null}`) whatever was sent.
 */
async function readReview(ctx: HandlerContext): Promise<KubeObject> {
  if (ctx.info.verb !== "create") throw newMethodNotSupported({ group: GROUP, resource: ctx.type.resource }, ctx.info.verb);
  const body = await readObjectBody(ctx, parseWriteQuery(ctx.url.searchParams, "CreateOptions").fieldValidation);
  return withGoZeroValues({ apiVersion: apiVersionOf(ctx.type.group, ctx.type.version), kind: ctx.type.kind, ...body });
}

async function decide(authorizer: Authorizer, review: KubeObject, attributes: ReturnType<typeof reviewAttributes>): Promise<KubeObject> {
  const result = await authorizer.authorize(attributes);
  const status: Record<string, unknown> = { allowed: result.decision === "Allow" };
  if (result.decision === "Deny") status.denied = true;
  if (result.reason) status.reason = result.reason;
  return withGoZeroValues({ ...review, status });
}

function accessReview(kind: ReviewKind): Handler {
  return async (ctx) => {
    const review = await readReview(ctx);
    validateReview(kind, review);
    if (kind === "LocalSubjectAccessReview") {
      if (ctx.info.namespace === "") throw newBadRequest("namespace is required on this type: ");
      if (review.metadata.namespace !== ctx.info.namespace) {
        throw newBadRequest(`spec.resourceAttributes.namespace must match namespace: ${ctx.info.namespace}`);
      }
    }
    const spec = specOf(review);
    const user = kind === "SelfSubjectAccessReview" ? ctx.user : reviewedUser(spec);
    return respondObject(await decide(ctx.services.authorizer, review, reviewAttributes(user, spec)), 201, ctx.encode);
  };
}

const selfSubjectRulesReview: Handler = async (ctx) => {
  const review = await readReview(ctx);
  const namespace = specOf(review).namespace;
  if (typeof namespace !== "string" || namespace === "") throw newBadRequest("no namespace on request");
  const found = (await ctx.services.authorizer.rulesFor?.(ctx.user, namespace)) ?? { rules: [], incomplete: true, errors: [] };
  const status: Record<string, unknown> = {
    resourceRules: found.rules.filter((r) => (r.resources ?? []).length > 0).map((r) => ({
      verbs: r.verbs,
      apiGroups: r.apiGroups ?? [],
      resources: r.resources,
      ...(r.resourceNames?.length ? { resourceNames: r.resourceNames } : {}),
    })),
    nonResourceRules: found.rules.filter((r) => (r.nonResourceURLs ?? []).length > 0).map((r) => ({
      verbs: r.verbs,
      nonResourceURLs: r.nonResourceURLs,
    })),
    incomplete: found.incomplete,
  };
  if (found.errors.length > 0) {
    status.evaluationError = found.errors.length === 1 ? found.errors[0] : `[${[...new Set(found.errors)].join(", ")}]`;
  }
  const answer = { apiVersion: review.apiVersion, kind: review.kind, metadata: review.metadata, spec: { namespace }, status };
  return respondObject(withGoZeroValues(answer), 201, ctx.encode);
};

/** Entries for the server's virtual handler map. */
export function accessReviewHandlers(): [string, Handler][] {
  return [
    [virtualHandlerKey(GROUP, "selfsubjectaccessreviews"), accessReview("SelfSubjectAccessReview")],
    [virtualHandlerKey(GROUP, "subjectaccessreviews"), accessReview("SubjectAccessReview")],
    [virtualHandlerKey(GROUP, "localsubjectaccessreviews"), accessReview("LocalSubjectAccessReview")],
    [virtualHandlerKey(GROUP, "selfsubjectrulesreviews"), selfSubjectRulesReview],
  ];
}
