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
const decidesUser = (result: Authentication) => result.kind === "user";
const errorOf = (result: Authentication) => result.kind === "error" ? result.message : undefined;

function undecided(errors: readonly string[]): Authentication {
  return errors.length > 0 ? { kind: "error", message: errors.join(", ") } : NOT_MINE;
}

const requestWalk: UnionWalk<Authenticator, AuthenticationRequest, undefined, Authentication> = {
  ask: (member, request) => member.authenticate(request),
  decides: decidesUser,
  note: errorOf,
  undecided,
};

const tokenWalk: UnionWalk<TokenAuthenticator, string, string[], Authentication> = {
  ask: (member, token, audiences) => member.authenticateToken(token, audiences),
  decides: decidesUser,
  note: errorOf,
  undecided,
};

/** The first authenticator that knows the user decides; errors are kept for the 401 when none does. */
export function unionAuthenticator(authenticators: Authenticator[]): Authenticator {
  return { authenticate: (request) => firstDecision(authenticators, requestWalk, request, undefined) };
}

export function unionTokenAuthenticator(authenticators: TokenAuthenticator[]): TokenAuthenticator {
  return { authenticateToken: (token, audiences) => firstDecision(authenticators, tokenWalk, token, audiences) };
}

/** kube's invalidTokenWithSpaceWarning. */
export const EXTRA_SPACE_WARNING = "the provided Authorization header contains extra space before the bearer token, and is ignored";

/**
 * The token of `Authorization: Bearer <token>`, split as kube's bearertoken.AuthenticateRequest does: trimmed,
 * then cut at single spaces into at most three parts (strings.SplitN), so anything after the token is ignored and a
 * second space before it leaves no token (with a warning); undefined when the header carries no bearer token. Cut by
 * index rather than split: the header (often a 1 KB JWT) is read on every request.
 */
export function bearerToken(header: string, warnings?: string[]): string | undefined {
  const trimmed = header.trim();
  const schemeEnd = trimmed.indexOf(" ");
  if (!isBearerScheme(trimmed, schemeEnd)) return undefined;
  const tokenEnd = trimmed.indexOf(" ", schemeEnd + 1);
  const token = tokenEnd < 0 ? trimmed.slice(schemeEnd + 1) : trimmed.slice(schemeEnd + 1, tokenEnd);
  if (token !== "") return token;
  if (tokenEnd >= 0) warnings?.push(EXTRA_SPACE_WARNING);
  return undefined;
}

const BEARER = "bearer";

/**
 * Whether `text` up to `end` is "bearer" in any case (Go's strings.ToLower compared): compared by character, as no
 * other character lowers to one of these ASCII letters, so no lowered copy is made.
 */
function isBearerScheme(text: string, end: number): boolean {
  if (end !== BEARER.length) return false;
  for (let index = 0; index < end; index++) {
    if ((text.charCodeAt(index) | 0x20) !== BEARER.charCodeAt(index)) return false;
  }
  return true;
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
