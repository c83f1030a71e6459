/**
 * kube's WrapAudienceAgnosticToken: a token authenticator that knows nothing of audiences (static tokens,
 * bootstrap tokens) accepts tokens only for the server's own audiences. When the caller names audiences that
 * do not overlap them the token is not recognised; otherwise the answer carries the overlap.
 */
import type { TokenAuthenticator } from "./authenticator.ts";

export function audienceAgnostic(inner: TokenAuthenticator, implicitAudiences: readonly string[]): TokenAuthenticator {
  return {
    async authenticateToken(token, audiences) {
      // No audiences asked for (the server has none configured): nothing to check.
      if (audiences.length === 0) return inner.authenticateToken(token, audiences);
      const overlap = implicitAudiences.filter((audience) => audiences.includes(audience));
      if (overlap.length === 0) return { kind: "not-mine" };
      const result = await inner.authenticateToken(token, audiences);
      return result.kind === "user" ? { ...result, audiences: overlap } : result;
    },
  };
}
