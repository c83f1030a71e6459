/**
 * POST of a TokenReview (spec 2.6): answered by the server's own token authenticators, never stored. The reply
 * is the posted review with its status filled in, 201 as for any create.
 */
import { newBadRequest } from "../../api/errors.ts";
import type { KubeObject } from "../../api/types.ts";
import { reviewToken, type TokenReviewSpec } from "../../auth/token-review.ts";
import { newMethodNotAllowed, newResourceNotFound } from "../resource-route.ts";
import { respondObject } from "../respond.ts";
import type { HandlerContext } from "./context.ts";
import { parseWriteQuery, readObjectBody } from "./write-options.ts";

export async function handleTokenReview(ctx: HandlerContext): Promise<Response> {
  // Cluster-scoped and create-only: no namespaced or named paths, no other verbs.
  if (ctx.info.namespace !== "" || ctx.info.name !== "" || ctx.info.subresource !== "") throw newResourceNotFound();
  if (ctx.info.verb !== "create") throw newMethodNotAllowed();
  const query = parseWriteQuery(ctx.url.searchParams, "CreateOptions");
  const review = await readObjectBody(ctx, query.fieldValidation);
  const spec = specOf(review);
  if (spec.token === "") throw newBadRequest("token is required for TokenReview in authentication");
  const status = await reviewToken(ctx.services.authentication.tokens, spec, ctx.services.authentication.audiences);
  const apiVersion = `${ctx.type.group}/${ctx.type.version}`;
  const answer = {
    ...review,
    apiVersion,
    kind: ctx.type.kind,
    metadata: { ...review.metadata, creationTimestamp: null },
    spec: review.spec ?? {},
    status,
  };
  return respondObject(answer as unknown as KubeObject, 201, ctx.encode);
}

function specOf(review: KubeObject): TokenReviewSpec {
  const spec = (review.spec ?? {}) as { token?: unknown; audiences?: unknown };
  const token = typeof spec.token === "string" ? spec.token : "";
  const audiences = Array.isArray(spec.audiences) ? spec.audiences.filter((a): a is string => typeof a === "string") : [];
  return { token, audiences };
}
