import { expect, test } from "bun:test";
import { StatusError } from "../../api/errors.ts";
import type { Attributes, Authorizer } from "../../auth/authorizer.ts";
import type { UserInfo } from "../../auth/user.ts";
import { impersonateRequest } from "./impersonation.ts";

const ADMIN: UserInfo = { username: "admin", groups: ["system:masters", "system:authenticated"] };

function recordingAuthorizer(deny: (a: Attributes) => boolean = () => false): { authorizer: Authorizer; asked: Attributes[] } {
  const asked: Attributes[] = [];
  const authorizer: Authorizer = {
    authorize(attributes) {
      asked.push(attributes);
      return Promise.resolve({ decision: deny(attributes) ? "Deny" : "Allow" });
    },
  };
  return { authorizer, asked };
}

function requestWith(headers: [string, string][]): Request {
  const h = new Headers();
  for (const [name, value] of headers) h.append(name, value);
  return new Request("https://kubun/api/v1/namespaces?limit=1", { headers: h });
}

test("impersonateRequest() keeps the requester when no Impersonate-* header is sent", async () => {
  const { authorizer, asked } = recordingAuthorizer();
  expect(await impersonateRequest(authorizer, requestWith([]), ADMIN)).toBe(ADMIN);
  expect(asked).toEqual([]);
});

test("impersonateRequest() checks each header as verb impersonate and builds the new user", async () => {
  const { authorizer, asked } = recordingAuthorizer();
  const request = requestWith([
    ["Impersonate-User", "jane"],
    ["Impersonate-Group", "dev"],
    ["Impersonate-Group", "ops"],
    ["Impersonate-Extra-Acme.com%2FProject", "blue"],
    ["Impersonate-Uid", "1234"],
  ]);
  expect(await impersonateRequest(authorizer, request, ADMIN)).toEqual({
    username: "jane",
    uid: "1234",
    groups: ["dev", "ops", "system:authenticated"],
    extra: { "acme.com/project": ["blue"] },
  });
  const checked = asked.map((a) => [a.verb, a.apiGroup, a.resource, a.subresource, a.name, a.user.username]);
  expect(checked).toEqual([
    ["impersonate", "", "users", "", "jane", "admin"],
    ["impersonate", "", "groups", "", "dev", "admin"],
    ["impersonate", "", "groups", "", "ops", "admin"],
    ["impersonate", "authentication.k8s.io", "userextras", "acme.com/project", "blue", "admin"],
    ["impersonate", "authentication.k8s.io", "uids", "", "1234", "admin"],
  ]);
});

test("impersonateRequest() treats a service account name as namespace + name with the account's groups", async () => {
  const { authorizer, asked } = recordingAuthorizer();
  const user = await impersonateRequest(authorizer, requestWith([["Impersonate-User", "system:serviceaccount:team:builder"]]), ADMIN);
  expect(user).toEqual({
    username: "system:serviceaccount:team:builder",
    groups: ["system:serviceaccounts", "system:serviceaccounts:team", "system:authenticated"],
  });
  expect([asked[0]!.resource, asked[0]!.namespace, asked[0]!.name]).toEqual(["serviceaccounts", "team", "builder"]);
});

test("impersonateRequest() lets given groups replace the defaults and keeps system:unauthenticated for anonymous", async () => {
  const { authorizer } = recordingAuthorizer();
  const account = [["Impersonate-User", "system:serviceaccount:team:builder"], ["Impersonate-Group", "system:unauthenticated"]] as [
    string,
    string,
  ][];
  expect(await impersonateRequest(authorizer, requestWith(account), ADMIN)).toEqual({
    username: "system:serviceaccount:team:builder",
    groups: ["system:unauthenticated"],
  });
  expect(await impersonateRequest(authorizer, requestWith([["Impersonate-User", "system:anonymous"]]), ADMIN)).toEqual({
    username: "system:anonymous",
    groups: ["system:unauthenticated"],
  });
});

test("impersonateRequest() answers a denial with kube's 403 naming the requester", async () => {
  const { authorizer } = recordingAuthorizer((a) => a.resource === "groups");
  const failure = await Promise.resolve(
    impersonateRequest(authorizer, requestWith([["Impersonate-User", "jane"], ["Impersonate-Group", "dev"]]), ADMIN),
  )
    .catch((e: unknown) => e);
  expect(failure).toBeInstanceOf(StatusError);
  expect((failure as StatusError).code).toBe(403);
  expect((failure as StatusError).message).toBe(
    'groups "dev" is forbidden: User "admin" cannot impersonate resource "groups" in API group "" at the cluster scope',
  );
});

test("impersonateRequest() answers groups, extras or uid without a user with kube's plain-text 500", async () => {
  const { authorizer, asked } = recordingAuthorizer();
  const response = await impersonateRequest(authorizer, requestWith([["Impersonate-Group", "dev"], ["Impersonate-Uid", "9"]]), ADMIN);
  expect(response).toBeInstanceOf(Response);
  expect((response as Response).status).toBe(500);
  expect(await (response as Response).text()).toBe(
    'Internal Server Error: "/api/v1/namespaces?limit=1": requested [{Group  dev    } {UID  9  authentication.k8s.io/v1  }] without impersonating a user\n',
  );
  expect(asked).toEqual([]);
});

test("impersonateRequest() (kube's buildImpersonationRequests) reads every Impersonate-Extra-* field, in name order, each value once", async () => {
  const { authorizer, asked } = recordingAuthorizer();
  const request = requestWith([
    ["Impersonate-User", "jane"],
    ["Impersonate-Extra-Zone", "b"],
    ["Accept", "application/json"],
    ["Impersonate-Extra-Color", "red"],
    ["Impersonate-Extra-Color", "green"],
    ["Impersonate-Extra-Empty", ""],
  ]);
  expect(await impersonateRequest(authorizer, request, ADMIN)).toEqual({
    username: "jane",
    groups: ["system:authenticated"],
    extra: { color: ["red", "green"], zone: ["b"] },
  });
  expect(asked.map((a) => [a.resource, a.subresource, a.name])).toEqual([
    ["users", "", "jane"],
    ["userextras", "color", "red"],
    ["userextras", "color", "green"],
    ["userextras", "zone", "b"],
  ]);
});
