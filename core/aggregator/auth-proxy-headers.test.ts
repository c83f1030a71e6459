import { expect, test } from "bun:test";
import { userFromHeaders } from "../../auth-plugins/authn/requestheader/mod.ts";
import { setAuthProxyHeaders } from "./auth-proxy-headers.ts";

test("setAuthProxyHeaders() replaces caller-sent X-Remote headers with the authenticated user", () => {
  const headers = new Headers({
    "X-Remote-User": "mallory",
    "X-Remote-Group": "system:masters",
    "X-Remote-Extra-Evil": "1",
    Accept: "application/json",
  });
  setAuthProxyHeaders(headers, { username: "alice", groups: ["devs", "system:authenticated"] });
  expect(headers.get("X-Remote-User")).toBe("alice");
  expect(headers.get("X-Remote-Group")).toBe("devs, system:authenticated");
  expect(headers.has("X-Remote-Extra-Evil")).toBe(false);
  expect(headers.get("Accept")).toBe("application/json");
});

test("setAuthProxyHeaders() percent-encodes extra keys so the request-header authenticator reads them back", () => {
  const headers = new Headers();
  const user = { username: "alice", groups: ["devs"], extra: { "acme.com/project": ["blue"], "100%": ["x"], scopes: ["read", "write"] } };
  setAuthProxyHeaders(headers, user);
  expect(headers.get("X-Remote-Extra-acme.com%2Fproject")).toBe("blue");
  expect(headers.get("X-Remote-Extra-100%25")).toBe("x");
  const names = { usernameHeaders: ["X-Remote-User"], groupHeaders: ["X-Remote-Group"], extraHeaderPrefixes: ["X-Remote-Extra-"] };
  expect(userFromHeaders(headers, names)).toEqual(user);
});
