/**
 * Warnings recorded during a request reach its answer when that answer is an error: kube's WithWarningRecorder
 * writes what warning.AddWarning recorded into the response's headers whatever status the handler then writes.
 * Covers the deprecated version's warning (the installer's AddWarningsHandler), fieldValidation=Warn's unknown fields
 * (the create handler's addStrictDecodingWarnings, before the store validates) and admission webhooks' warnings
 * (the dispatchers' callHook, before they look at `allowed`), in the order recorded.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { configurationFor, reply, startWebhookServer, type TestWebhookServer } from "../admission-plugins/_webhook/testing.ts";
import { startServer, type TestServer } from "./harness.ts";
import { configMap, expectStatus, sendJson } from "./_api.ts";

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

/** The Warning header values as sent: Go clients read the header's bytes as UTF-8, fetch reads them as Latin-1. */
function warningsOf(headers: Headers): string[] {
  const joined = headers.get("warning");
  if (joined === null) return [];
  const text = new TextDecoder().decode(Uint8Array.from(joined, (ch) => ch.charCodeAt(0)));
  return text.match(/299 - "(?:[^"\\]|\\.)*"/g) ?? [];
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

test("AddWarningsHandler: the deprecated version's warning reaches a 400 for the handler's own options (includeObject)", async () => {
  const answer = await sendJson(server, "GET", `${V1BETA2_FLOWSCHEMAS}?includeObject=Everything`);
  expectStatus(answer, 400, "BadRequest");
  expect(warningsOf(answer.headers)).toEqual([header(FLOWSCHEMA_DEPRECATION)]);
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

test("callHook: webhooks' warnings reach a validating webhook's denial, the mutating one's first", async () => {
  const mutating = await startWebhookServer((review) =>
    reply(review, { allowed: true, warnings: ["mutator saw it", "line\nbreak", "beyond Latin-1 ⚠"] })
  );
  const validating = await startWebhookServer((review) =>
    reply(review, {
      allowed: false,
      warnings: ['denier says "no"', "café", "mutator saw it"],
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
  const denied = configMap("default", "denied", { labels: { test: "warned-denial" } });

  const answer = await sendJson(server, "POST", "/api/v1/namespaces/default/configmaps", denied);
  expectStatus(answer, 403, "Forbidden", 'admission webhook "validatingwebhookconfigurations.example.com" denied the request: not today');
  // NewWarningHeader refuses the text with a newline; the repeated text is recorded once; a text the runtime cannot
  // write in a header is left out instead of failing the answer with a 500; "é" arrives as its UTF-8 bytes.
  expect(warningsOf(answer.headers)).toEqual([header("mutator saw it"), header('denier says "no"'), header("café")]);

  const result = await server.kubectl(["create", "-f", "-"], { stdin: JSON.stringify(denied) });
  expect(result.code).not.toBe(0);
  expect(result.stderr).toContain("Warning: mutator saw it");
  expect(result.stderr).toContain('Warning: denier says "no"');
  expect(result.stderr).toContain("denied the request: not today");
});
