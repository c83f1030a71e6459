/**
 * The authenticator contract and its unions (k8s.io/apiserver pkg/authentication/request/union and
 * bearertoken). An authenticator answers with a user, with "not mine" when the request carries no
 * credential it understands, or with an error when it carries one that is invalid. Invalid credentials are
 * a 401: they never fall through to anonymous (spec 5.7).
 */
import type { PeerCertificate } from "../runtime/listener.ts";
import type { UserInfo } from "./user.ts";

export type Authentication =
  | { kind: "user"; user: UserInfo; audiences?: string[] }
  | { kind: "not-mine" }
  | { kind: "error"; message: string };

export interface AuthenticationRequest {
  headers: Headers;
  url: URL;
  peerCertificate?: PeerCertificate;
}

export interface Authenticator {
  authenticate(request: AuthenticationRequest): Promise<Authentication>;
}

/** Token authenticators see only the bearer token (and the audiences the server accepts). */
export interface TokenAuthenticator {
  authenticateToken(token: string, audiences: string[]): Promise<Authentication>;
}

export const NOT_MINE: Authentication = { kind: "not-mine" };

async function firstDecisive(attempts: (() => Promise<Authentication>)[]): Promise<Authentication> {
  const errors: string[] = [];
  for (const attempt of attempts) {
    const result = await attempt();
    if (result.kind === "user") return result;
    if (result.kind === "error") errors.push(result.message);
  }
  return errors.length > 0 ? { kind: "error", message: errors.join(", ") } : NOT_MINE;
}

/** The first authenticator that knows the user decides; errors are kept for the 401 when none does. */
export function unionAuthenticator(authenticators: Authenticator[]): Authenticator {
  return { authenticate: (request) => firstDecisive(authenticators.map((a) => () => a.authenticate(request))) };
}

export function unionTokenAuthenticator(authenticators: TokenAuthenticator[]): TokenAuthenticator {
  return { authenticateToken: (token, audiences) => firstDecisive(authenticators.map((a) => () => a.authenticateToken(token, audiences))) };
}

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/** Reads `Authorization: Bearer <token>`; a token that no token authenticator accepts is invalid (kube's bearertoken). */
export function bearerTokenAuthenticator(tokens: TokenAuthenticator, audiences: string[]): Authenticator {
  return {
    async authenticate(request) {
      const match = BEARER.exec(request.headers.get("authorization") ?? "");
      if (!match) return NOT_MINE;
      const result = await tokens.authenticateToken(match[1], audiences);
      return result.kind === "not-mine" ? { kind: "error", message: "invalid bearer token" } : result;
    },
  };
}
