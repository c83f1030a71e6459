/**
 * The authenticator contract and its unions (k8s.io/apiserver pkg/authentication/request/union and
 * bearertoken). An authenticator answers with a user, with "not mine" when the request carries no
 * credential it understands, or with an error when it carries one that is invalid. Invalid credentials are
 * a 401: they never fall through to anonymous (spec 5.7).
 */
import { thenOrNow } from "../api/then-or-now.ts";
import type { PeerCertificate } from "../runtime/listener.ts";
import type { UserInfo } from "./user.ts";
import { firstDecision, type UnionWalk } from "./_first-decision.ts";

export type Authentication =
  | { kind: "user"; user: UserInfo; audiences?: string[] }
  | { kind: "not-mine" }
  | { kind: "error"; message: string };

export interface AuthenticationRequest {
  headers: Headers;
  url: URL;
  peerCertificate?: PeerCertificate;
  /** Receives texts for the answer's Warning headers (kube's warning.AddWarning). */
  warnings?: string[];
}

export interface Authenticator {
  /** A plain value when the answer needs no waiting (a client certificate, no credential at all). */
  authenticate(request: AuthenticationRequest): Authentication | Promise<Authentication>;
}

/** Token authenticators see only the bearer token (and the audiences the server accepts). */
export interface TokenAuthenticator {
  /** A plain value when the answer needs no waiting (a token already verified, read from memory). */
  authenticateToken(token: string, audiences: string[]): Authentication | Promise<Authentication>;
}

export const NOT_MINE: Authentication = { kind: "not-mine" };

/** A member's answer decides once it names the user; its error is kept for the 401 when none does. */
function decidesUser(result: Authentication, errors: string[]): boolean {
  if (result.kind === "error") errors.push(result.message);
  return result.kind === "user";
}

function undecided(errors: string[]): Authentication {
  return errors.length > 0 ? { kind: "error", message: errors.join(", ") } : NOT_MINE;
}

const REQUEST_WALK: UnionWalk<Authenticator, AuthenticationRequest, Authentication> = {
  ask: (authenticator, request) => authenticator.authenticate(request),
  decides: decidesUser,
  undecided,
};

/** The first authenticator that knows the user decides; errors are kept for the 401 when none does. */
export function unionAuthenticator(authenticators: Authenticator[]): Authenticator {
  return { authenticate: (request) => firstDecision(authenticators, REQUEST_WALK, request) };
}

const TOKEN_WALK: UnionWalk<TokenAuthenticator, { token: string; audiences: string[] }, Authentication> = {
  ask: (authenticator, { token, audiences }) => authenticator.authenticateToken(token, audiences),
  decides: decidesUser,
  undecided,
};

export function unionTokenAuthenticator(authenticators: TokenAuthenticator[]): TokenAuthenticator {
  return { authenticateToken: (token, audiences) => firstDecision(authenticators, TOKEN_WALK, { token, audiences }) };
}

/** kube's invalidTokenWithSpaceWarning. */
export const EXTRA_SPACE_WARNING = "the provided Authorization header contains extra space before the bearer token, and is ignored";

/**
 * The token of `Authorization: Bearer <token>`, split as kube's bearertoken.AuthenticateRequest does: trimmed,
 * then cut at single spaces into at most three parts, so anything after the token is ignored and a second space
 * before it leaves no token (with a warning); undefined when the header carries no bearer token.
 */
export function bearerToken(header: string, warnings?: string[]): string | undefined {
  const parts = splitN(header.trim(), " ", 3);
  if (parts.length < 2 || parts[0]!.toLowerCase() !== "bearer") return undefined;
  const token = parts[1]!;
  if (token !== "") return token;
  if (parts.length === 3) warnings?.push(EXTRA_SPACE_WARNING);
  return undefined;
}

/** Go's strings.SplitN: at most `n` parts, the last holding the rest. */
function splitN(text: string, separator: string, n: number): string[] {
  const parts = text.split(separator);
  return parts.length <= n ? parts : [...parts.slice(0, n - 1), parts.slice(n - 1).join(separator)];
}

/** Reads `Authorization: Bearer <token>`; a token that no token authenticator accepts is invalid (kube's bearertoken). */
export function bearerTokenAuthenticator(tokens: TokenAuthenticator, audiences: string[]): Authenticator {
  return {
    authenticate(request) {
      const token = bearerToken(request.headers.get("authorization") ?? "", request.warnings);
      if (token === undefined) return NOT_MINE;
      return thenOrNow(tokens.authenticateToken(token, audiences), bearerOutcome);
    },
  };
}

function bearerOutcome(result: Authentication): Authentication {
  return result.kind === "not-mine" ? { kind: "error", message: "invalid bearer token" } : result;
}
