/**
 * Warnings recorded during a request reach its answer when that answer is an error: kube's WithWarningRecorder
 * writes what warning.AddWarning recorded into the response's headers whatever status the handler then writes.
 * Covers the deprecated version's warning (the installer's AddWarningsHandler), fieldValidation=Warn's unknown fields
 * (the create handler's addStrictDecodingWarnings, before the store validates) and admission webhooks' warnings
 * (the dispatchers' callHook, before they look at `allowed`), in the order recorded.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { connect as http2Connect } from "node:http2";
import { configurationFor, reply, startWebhookServer, type TestWebhookServer } from "../admission-plugins/_webhook/testing.ts";
import { readCredentials, startServer, type TestServer } from "./harness.ts";
import { configMap, createConfigMap, expectStatus, sendJson } from "./_api.ts";
import { rawExchange } from "./_raw-request.ts";

const FLOWSCHEMA_DEPRECATION =
  "flowcontrol.apiserver.k8s.io/v1beta2 FlowSchema is deprecated in v1.26+, unavailable in v1.29+; use flowcontrol.apiserver.k8s.io/v1beta3 FlowSchema";
const V1BETA2_FLOWSCHEMAS = "/apis/flowcontrol.apiserver.k8s.io/v1beta2/flowschemas";

let server: TestServer;
const hooks: TestWebhookServer[] = [];

beforeAll(async () => {
  server = await startServer();
});

afterAll(async () => {
  await server?.stop();
  await Promise.all(hooks.map((hook) => hook.close()));
});

/** The Warning header values in `bytes`, read as UTF-8 as Go clients do (invalid UTF-8 fails the test). */
function warningsIn(bytes: Uint8Array): string[] {
  return new TextDecoder("utf-8", { fatal: true }).decode(bytes).match(/299 - "(?:[^"\\]|\\.)*"/g) ?? [];
}

/** The Warning header values as sent: fetch reads the header's bytes as Latin-1, one character per byte. */
function warningsOf(headers: Headers): string[] {
  return warningsIn(Buffer.from(headers.get("warning") ?? "", "latin1"));
}

function header(text: string): string {
  return `299 - "${text.replace(/["\\]/g, "\\$&")}"`;
}

test("AddWarningsHandler: the deprecated version's warning reaches the 404 of a FlowSchema that does not exist", async () => {
  const answer = await sendJson(server, "GET", `${V1BETA2_FLOWSCHEMAS}/missing`);
  expectStatus(answer, 404, "NotFound", 'flowschemas.flowcontrol.apiserver.k8s.io "missing" not found');
  expect(warningsOf(answer.headers)).toEqual([header(FLOWSCHEMA_DEPRECATION)]);

  const result = await server.kubectl(["get", "flowschemas.v1beta2.flowcontrol.apiserver.k8s.io", "missing"]);
  expect(result.code).not.toBe(0);
  expect(result.stderr).toContain(`Warning: ${FLOWSCHEMA_DEPRECATION}`);
  expect(result.stderr).toContain('flowschemas.flowcontrol.apiserver.k8s.io "missing" not found');
});

test("AddWarningsHandler: the deprecated version's warning reaches a 400 for the handler's own options (a Table's includeObject)", async () => {
  const response = await server.request("GET", `${V1BETA2_FLOWSCHEMAS}?includeObject=Everything`, {
    headers: { Accept: "application/json;as=Table;v=v1;g=meta.k8s.io" },
  });
  expectStatus({ status: response.status, body: await response.json() }, 400, "BadRequest");
  expect(warningsOf(response.headers)).toEqual([header(FLOWSCHEMA_DEPRECATION)]);
});

test("addStrictDecodingWarnings: fieldValidation=Warn's unknown field reaches the 422 of an invalid name", async () => {
  const body = { ...configMap("default", "Not_A_Valid_Name"), bogus: true };
  const answer = await sendJson(server, "POST", "/api/v1/namespaces/default/configmaps?fieldValidation=Warn", body);
  expectStatus(answer, 422, "Invalid");
  expect(warningsOf(answer.headers)).toEqual([header('unknown field "bogus"')]);

  const result = await server.kubectl(["create", "--validate=warn", "-f", "-"], { stdin: JSON.stringify(body) });
  expect(result.code).not.toBe(0);
  expect(result.stderr).toContain('Warning: unknown field "bogus"');
  expect(result.stderr).toContain('ConfigMap "Not_A_Valid_Name" is invalid');
});

const CONFLICT = /^Operation cannot be fulfilled on configmaps "[a-z-]+": the object has been modified/;

test("UpdateResource: fieldValidation=Warn's unknown field reaches the 409 of a stale resourceVersion (decoded before the update)", async () => {
  const live = await createConfigMap(server, "default", "stale-put");
  await sendJson(server, "PUT", "/api/v1/namespaces/default/configmaps/stale-put", { ...live, data: { key: "newer" } });
  const body = { ...live, bogus: 1 };
  const answer = await sendJson(server, "PUT", "/api/v1/namespaces/default/configmaps/stale-put?fieldValidation=Warn", body);
  expectStatus(answer, 409, "Conflict", CONFLICT);
  expect(warningsOf(answer.headers)).toEqual([header('unknown field "bogus"')]);

  const result = await server.kubectl(["replace", "--validate=warn", "-f", "-"], { stdin: JSON.stringify(body) });
  expect(result.code).not.toBe(0);
  expect(result.stderr).toContain('Warning: unknown field "bogus"');
  expect(result.stderr).toContain("the object has been modified");
});

test("UpdateResource: fieldValidation=Warn's unknown field reaches the 400 of checkName (body and URL name differ)", async () => {
  await createConfigMap(server, "default", "url-name");
  const body = { ...configMap("default", "body-name"), bogus: 1 };
  const answer = await sendJson(server, "PUT", "/api/v1/namespaces/default/configmaps/url-name?fieldValidation=Warn", body);
  expectStatus(answer, 400, "BadRequest", "the name of the object (body-name) does not match the name on the URL (url-name)");
  expect(warningsOf(answer.headers)).toEqual([header('unknown field "bogus"')]);
});

test("UpdateResource: fieldValidation=Strict refuses the unknown field before checkName", async () => {
  const body = { ...configMap("default", "body-name"), bogus: 1 };
  const answer = await sendJson(server, "PUT", "/api/v1/namespaces/default/configmaps/url-name?fieldValidation=Strict", body);
  expectStatus(answer, 400, "BadRequest", /strict decoding error: unknown field "bogus"/);
});

test("PatchResource: the patched object's unknown field reaches the 409 of the patch's stale resourceVersion", async () => {
  const live = await createConfigMap(server, "default", "stale-patch");
  await sendJson(server, "PUT", "/api/v1/namespaces/default/configmaps/stale-patch", { ...live, data: { key: "newer" } });
  const patch = { metadata: { resourceVersion: live.metadata.resourceVersion }, bogus: 1 };
  const answer = await sendJson(
    server,
    "PATCH",
    "/api/v1/namespaces/default/configmaps/stale-patch?fieldValidation=Warn",
    patch,
    "application/merge-patch+json",
  );
  expectStatus(answer, 409, "Conflict", CONFLICT);
  expect(warningsOf(answer.headers)).toEqual([header('unknown field "bogus"')]);
});

test("CreateResource: fieldValidation=Warn's unknown field reaches the 400 of a resourceVersion set on create", async () => {
  const body = { ...configMap("default", "versioned"), bogus: 1 };
  body.metadata.resourceVersion = "5";
  const answer = await sendJson(server, "POST", "/api/v1/namespaces/default/configmaps?fieldValidation=Warn", body);
  expectStatus(answer, 400, "BadRequest", "resourceVersion should not be set on objects to be created");
  expect(warningsOf(answer.headers)).toEqual([header('unknown field "bogus"')]);
});

test("the recorder keeps kube's order on a 422: the deprecation (before the handler), then decoding's unknown fields", async () => {
  const flowSchema = {
    apiVersion: "flowcontrol.apiserver.k8s.io/v1beta2",
    kind: "FlowSchema",
    metadata: { name: "Not_A_Valid_Name" },
    spec: { priorityLevelConfiguration: { name: "global-default" }, bogus: 1 },
  };
  const answer = await sendJson(server, "POST", `${V1BETA2_FLOWSCHEMAS}?fieldValidation=Warn`, flowSchema);
  expect(answer.status).toBe(422);
  expect(warningsOf(answer.headers)).toEqual([header(FLOWSCHEMA_DEPRECATION), header('unknown field "spec.bogus"')]);
});

const DENIED = configMap("default", "denied", { labels: { test: "warned-denial" } });
const DENIED_WARNINGS = ["mutator saw it", "arrow →", 'denier says "no"', "café", "emoji 😀"].map(header);
/**
 * Under Bun kubun writes HTTP/1.1 heads itself, each header's bytes as they are, as Go does. Deno's node:http
 * writes text as UTF-8 (see core/runtime/fetch-adapter.ts): there characters past U+00FF leave as "?".
 */
const DENIED_WARNINGS_HTTP1 = process.env.KUBUN_TEST_RUNTIME === "deno"
  ? ["mutator saw it", "arrow ?", 'denier says "no"', "café", "emoji ?"].map(header)
  : DENIED_WARNINGS;
let deniedByHooks: Promise<void> | undefined;

/** A mutating webhook and a validating one that denies DENIED, both warning (once per server, for the tests below). */
function denyWithWarnings(): Promise<void> {
  deniedByHooks ??= (async () => {
    const mutating = await startWebhookServer((review) =>
      reply(review, { allowed: true, warnings: ["mutator saw it", "line\nbreak", "arrow →"] })
    );
    const validating = await startWebhookServer((review) =>
      reply(review, {
        allowed: false,
        warnings: ['denier says "no"', "café", "emoji 😀", "mutator saw it"],
        status: { code: 403, reason: "Forbidden", message: "not today" },
      })
    );
    hooks.push(mutating, validating);
    const scope = { objectSelector: { matchLabels: { test: "warned-denial" } } };
    for (
      const [kind, plural, hook] of [
        ["MutatingWebhookConfiguration", "mutatingwebhookconfigurations", mutating],
        ["ValidatingWebhookConfiguration", "validatingwebhookconfigurations", validating],
      ] as const
    ) {
      const created = await sendJson(
        server,
        "POST",
        `/apis/admissionregistration.k8s.io/v1/${plural}`,
        configurationFor(kind, plural, hook, scope),
      );
      expect(created.status).toBe(201);
    }
  })();
  return deniedByHooks;
}

test("callHook: webhooks' warnings reach a validating webhook's denial, the mutating one's first", async () => {
  await denyWithWarnings();
  const answer = await sendJson(server, "POST", "/api/v1/namespaces/default/configmaps", DENIED);
  expectStatus(answer, 403, "Forbidden", 'admission webhook "validatingwebhookconfigurations.example.com" denied the request: not today');
  // NewWarningHeader refuses the text with a newline; the repeated text is recorded once.
  expect(warningsOf(answer.headers)).toEqual(DENIED_WARNINGS_HTTP1);

  const result = await server.kubectl(["create", "-f", "-"], { stdin: JSON.stringify(DENIED) });
  expect(result.code).not.toBe(0);
  // kubectl speaks HTTP/2 where the server offers it (not under Deno: see core/runtime/listener.ts).
  const over = process.env.KUBUN_TEST_RUNTIME === "deno" ? ["arrow ?", "emoji ?"] : ["arrow →", "emoji 😀"];
  for (const text of ["mutator saw it", over[0], 'denier says "no"', "café", over[1]]) {
    expect(result.stderr).toContain(`Warning: ${text}`);
  }
  expect(result.stderr).toContain("denied the request: not today");
});

test("NewWarningHeader's UTF-8: warnings leave as their UTF-8 bytes over HTTP/1.1 (Go's Header.WriteSubset)", async () => {
  await denyWithWarnings();
  const { hostname, port } = new URL(server.url);
  const body = JSON.stringify(DENIED);
  const reply = await rawExchange(
    server,
    `POST /api/v1/namespaces/default/configmaps HTTP/1.1\r\nHost: ${hostname}:${port}\r\nContent-Type: application/json\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
  const head = reply.subarray(0, reply.indexOf("\r\n\r\n"));
  expect(head.subarray(0, 12).toString()).toBe("HTTP/1.1 403");
  const lines = head.toString("latin1").split("\r\n").filter((line) => /^warning:/i.test(line));
  expect(warningsIn(Buffer.from(lines.join("\n"), "latin1"))).toEqual(DENIED_WARNINGS_HTTP1);
});

test.skipIf(process.env.KUBUN_TEST_RUNTIME === "deno")(
  "NewWarningHeader's UTF-8: non-ASCII warnings leave as their UTF-8 bytes over HTTP/2",
  async () => {
    await denyWithWarnings();
    const credentials = readCredentials(readFileSync(server.kubeconfig, "utf8"));
    const session = http2Connect(credentials.url, { ca: credentials.ca, cert: credentials.cert, key: credentials.key });
    try {
      const stream = session.request({
        ":method": "POST",
        ":path": "/api/v1/namespaces/default/configmaps",
        "content-type": "application/json",
      });
      stream.end(JSON.stringify(DENIED));
      const headers = await new Promise<Record<string, unknown>>((resolve, reject) => {
        stream.on("response", resolve);
        stream.on("error", reject);
      });
      stream.resume();
      expect(headers[":status"]).toBe(403);
      // node:http2 gives a header's bytes one character per byte.
      const warning = [headers.warning].flat().join("\n");
      expect(warningsIn(Buffer.from(warning, "latin1"))).toEqual(DENIED_WARNINGS);
    } finally {
      session.close();
    }
  },
);
