/**
 * How kube-apiserver decodes a PATCH body before applying it (endpoints/handlers/patch.go): applyJSPatch's strict
 * decoding under fieldValidation Warn (the default) and Strict, json-patch's DecodePatch and MergePatch under Ignore,
 * strategicPatchObject's map decoding; a null patch; a patch of a missing object; the patch types of a custom
 * resource's scale subresource; strategic merge patch's errors in apimachinery's mergepatch words.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { createConfigMap, createNamespace, expectStatus, getJson, type Json, warningsOf } from "./_api.ts";
import { kubectlOk } from "./_kubectl.ts";
import { startServer, type TestServer } from "./harness.ts";

const NS = "patch-decoding";
const JSON_PATCH = "application/json-patch+json";
const MERGE_PATCH = "application/merge-patch+json";
const STRATEGIC = "application/strategic-merge-patch+json";

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
  await createNamespace(server, NS);
});
afterAll(async () => {
  await server?.stop();
});

async function patch(path: string, contentType: string, body: string): Promise<{ status: number; body: Json; warnings: string[] }> {
  const response = await server.request("PATCH", path, { body, headers: { "Content-Type": contentType, Accept: "application/json" } });
  return { status: response.status, body: await response.json(), warnings: warningsOf(response.headers) };
}

const configMapPath = (name: string) => `/api/v1/namespaces/${NS}/configmaps/${name}`;

test("a patch body its type's decoder cannot take is a 400 in that decoder's words and changes nothing (applyJSPatch's UnmarshalStrict and DecodePatch, MergePatch, strategicPatchObject)", async () => {
  const before = await createConfigMap(server, NS, "decoded");
  const map = "map[string]interface {}";
  const cases: [contentType: string, fieldValidation: string, body: string, message: string][] = [
    [JSON_PATCH, "", '{"op":"add"}', "error decoding patch: json: cannot unmarshal object into Go value of type []handlers.jsonPatchOp"],
    [JSON_PATCH, "Strict", "[1]", "error decoding patch: json: cannot unmarshal number into Go value of type handlers.jsonPatchOp"],
    [
      JSON_PATCH,
      "Warn",
      '[{"op":"add","path":1,"value":"x"}]',
      "error decoding patch: json: cannot unmarshal number into Go struct field jsonPatchOp.path of type string",
    ],
    [JSON_PATCH, "", "[{", "error decoding patch: unexpected end of JSON input"],
    [JSON_PATCH, "Ignore", "{}", "json: cannot unmarshal object into Go value of type jsonpatch.Patch"],
    [JSON_PATCH, "Ignore", '["add"]', "json: cannot unmarshal string into Go value of type jsonpatch.Operation"],
    [JSON_PATCH, "Ignore", "x", "invalid character 'x' looking for beginning of value"],
    [MERGE_PATCH, "", "[1]", `error decoding patch: json: cannot unmarshal array into Go value of type ${map}`],
    [MERGE_PATCH, "Strict", '"x"', `error decoding patch: json: cannot unmarshal string into Go value of type ${map}`],
    [MERGE_PATCH, "", "{", "error decoding patch: unexpected end of JSON input"],
    [MERGE_PATCH, "", "null", "Invalid JSON Patch"],
    [MERGE_PATCH, "Ignore", '"x"', "Invalid JSON Patch"],
    [MERGE_PATCH, "Ignore", "{", "Invalid JSON Patch"],
    [STRATEGIC, "", "{", "unexpected end of JSON input"],
    [STRATEGIC, "Ignore", "[]", `json: cannot unmarshal array into Go value of type ${map}`],
  ];
  for (const [contentType, fieldValidation, body, message] of cases) {
    const query = fieldValidation ? `?fieldValidation=${fieldValidation}` : "";
    const answer = await patch(configMapPath("decoded") + query, contentType, body);
    expect({ contentType, fieldValidation, body, status: answer.status, reason: answer.body.reason, message: answer.body.message }).toEqual(
      { contentType, fieldValidation, body, status: 400, reason: "BadRequest", message },
    );
  }
  expect((await getJson(server, configMapPath("decoded"))).metadata.resourceVersion).toBe(before.metadata.resourceVersion);
});

test("a null JSON patch or strategic merge patch decodes into an empty patch: 200 and nothing changes (Go's Unmarshal of null)", async () => {
  const before = await createConfigMap(server, NS, "nulls");
  for (const contentType of [JSON_PATCH, STRATEGIC]) {
    const answer = await patch(configMapPath("nulls"), contentType, "null");
    expect({ contentType, status: answer.status, data: answer.body.data }).toEqual({ contentType, status: 200, data: before.data });
    expect(answer.body.metadata.resourceVersion).toBe(before.metadata.resourceVersion);
  }
});

test("a patch whose result is not a JSON object is kube's 422 on \"patch\" from the codec's apiVersion/kind lookup (jsonPatcher.applyPatchToCurrentObject)", async () => {
  await createConfigMap(server, NS, "arrays");
  const detail =
    'couldn\'t get version/kind; json parse error: json: cannot unmarshal array into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }';
  const cases: [string, string, string][] = [
    // MergePatch takes an array patch as the whole document, dropping null members of its objects.
    [MERGE_PATCH, '[1,{"a":null,"b":2}]', '[1,{"b":2}]'],
    [JSON_PATCH, '[{"op":"replace","path":"","value":[]}]', "[]"],
  ];
  for (const [contentType, body, value] of cases) {
    const answer = await patch(`${configMapPath("arrays")}?fieldValidation=Ignore`, contentType, body);
    expectStatus(answer, 422, "Invalid", ` "" is invalid: patch: Invalid value: ${JSON.stringify(value)}: ${detail}`);
    expect(answer.body.details.causes).toEqual([{
      reason: "FieldValueInvalid",
      message: `Invalid value: ${JSON.stringify(value)}: ${detail}`,
      field: "patch",
    }]);
  }
});

test("a malformed patch of a missing object is a 404: kube decodes the patch once the object is found (patcher.applyPatch)", async () => {
  for (const [contentType, body] of [[JSON_PATCH, "{"], [MERGE_PATCH, "[1]"], [STRATEGIC, "[]"]]) {
    const answer = await patch(configMapPath("absent"), contentType, body);
    expectStatus(answer, 404, "NotFound", 'configmaps "absent" not found');
  }
});

test("strategic merge patch errors print Go values as apimachinery's mergepatch errors do (ErrBadPatchType, ErrNoMergeKey, ErrBadArgType)", async () => {
  await kubectlOk(server, ["-n", NS, "create", "deployment", "web", "--image=nginx"]);
  const path = `/apis/apps/v1/namespaces/${NS}/deployments/web`;
  const cases: [string, string][] = [
    ['{"spec":{"$patch":"frob"}}', "unknown patch type: frob in map: map[$patch:frob]"],
    [
      '{"spec":{"template":{"spec":{"containers":[{"image":"x","ports":[{"containerPort":1}]}]}}}}',
      "map: map[image:x ports:[map[containerPort:1]]] does not contain declared merge key: name",
    ],
    ['{"spec":{"template":{"spec":{"$setElementOrder/containers":"x"}}}}', "expected a []interface {}, but received a string"],
  ];
  for (const [body, message] of cases) {
    const answer = await patch(path, STRATEGIC, body);
    // Not an API status: kube's ErrorToAPIStatus answers 500 with no reason.
    expect({ body, status: answer.status, reason: answer.body.reason, message: answer.body.message }).toEqual({
      body,
      status: 500,
      reason: undefined,
      message,
    });
  }
});

test("a custom resource's scale subresource takes the custom resource's patch types: strategic merge patch is a 415 (crdHandler.serveScale)", async () => {
  const crd = {
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "CustomResourceDefinition",
    metadata: { name: "dials.example.com" },
    spec: {
      group: "example.com",
      scope: "Namespaced",
      names: { plural: "dials", singular: "dial", kind: "Dial" },
      versions: [{
        name: "v1",
        served: true,
        storage: true,
        subresources: { status: {}, scale: { specReplicasPath: ".spec.replicas", statusReplicasPath: ".status.replicas" } },
        schema: {
          openAPIV3Schema: {
            type: "object",
            properties: {
              spec: { type: "object", properties: { replicas: { type: "integer" } } },
              status: { type: "object", properties: { replicas: { type: "integer" } } },
            },
          },
        },
      }],
    },
  };
  await kubectlOk(server, ["apply", "-f", "-"], JSON.stringify(crd));
  await kubectlOk(server, ["wait", "--for=condition=Established", "crd/dials.example.com"]);
  await kubectlOk(
    server,
    ["apply", "-f", "-"],
    JSON.stringify({ apiVersion: "example.com/v1", kind: "Dial", metadata: { name: "d", namespace: NS }, spec: { replicas: 1 } }),
  );
  const scale = `/apis/example.com/v1/namespaces/${NS}/dials/d/scale`;
  const refused = await patch(scale, STRATEGIC, '{"spec":{"replicas":3}}');
  expectStatus(
    refused,
    415,
    "UnsupportedMediaType",
    "the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml",
  );
  const merged = await patch(scale, MERGE_PATCH, '{"spec":{"replicas":3}}');
  expect({ status: merged.status, replicas: merged.body.spec?.replicas }).toEqual({ status: 200, replicas: 3 });
  expect((await getJson(server, `/apis/example.com/v1/namespaces/${NS}/dials/d`)).spec.replicas).toBe(3);
});

test("a patch's strict errors come before the patched object's unknown fields: warnings under Warn, one 422 on \"patch\" under Strict (jsonPatcher.applyPatchToCurrentObject, applyPatchToObject)", async () => {
  const before = await createConfigMap(server, NS, "strict");
  const cases: [contentType: string, body: string, errors: string[], strictValue?: string][] = [
    [MERGE_PATCH, '{"data":{"a":"1","a":"2"},"extra":1}', ['duplicate field "data.a"', 'unknown field "extra"']],
    [JSON_PATCH, '[{"op":"add","path":"/extra","value":1,"why":"x"}]', ['json patch unknown field "[0].why"', 'unknown field "extra"']],
    [STRATEGIC, '{"extra":{"b":1},"data":{"key":"value"}}', ['unknown field "extra"'], "map[data:map[key:value] extra:map[b:1]]"],
  ];
  for (const [contentType, body, errors, strictValue] of cases) {
    const warned = await patch(`${configMapPath("strict")}?dryRun=All`, contentType, body);
    expect({ contentType, status: warned.status, warnings: warned.warnings }).toEqual({ contentType, status: 200, warnings: errors });
    const ignored = await patch(`${configMapPath("strict")}?dryRun=All&fieldValidation=Ignore`, contentType, body);
    expect({ contentType, status: ignored.status, warnings: ignored.warnings }).toEqual({ contentType, status: 200, warnings: [] });
    const refused = await patch(`${configMapPath("strict")}?fieldValidation=Strict`, contentType, body);
    const detail = `strict decoding error: ${errors.join(", ")}`;
    expect({ contentType, status: refused.status, reason: refused.body.reason, field: refused.body.details?.causes?.[0]?.field }).toEqual({
      contentType,
      status: 422,
      reason: "Invalid",
      field: "patch",
    });
    // JSON and merge patches show the patched object's JSON with its unknown fields, strategic merge the patch map.
    const value = strictValue ?? refused.body.message.match(/Invalid value: "(.*)": strict decoding error/)?.[1];
    if (!strictValue) expect(JSON.parse(JSON.parse(`"${value}"`))).toMatchObject({ kind: "ConfigMap", extra: 1 });
    expect(refused.body.message).toBe(
      ` "" is invalid: patch: Invalid value: ${strictValue ? JSON.stringify(strictValue) : `"${value}"`}: ${detail}`,
    );
  }
  expect((await getJson(server, configMapPath("strict"))).metadata.resourceVersion).toBe(before.metadata.resourceVersion);
});

test('the patch type is the Content-Type up to its first ";", compared exactly: other spellings are 415 (PatchResource)', async () => {
  await createConfigMap(server, NS, "spelled");
  const body = '{"data":{"k":"v2"}}';
  const refusedTypes = ["Application/Merge-Patch+JSON", "application/merge-patch+json ; charset=utf-8"];
  for (const contentType of refusedTypes) {
    const answer = await patch(configMapPath("spelled"), contentType, body);
    expect({ contentType, status: answer.status, reason: answer.body.reason }).toEqual({
      contentType,
      status: 415,
      reason: "UnsupportedMediaType",
    });
  }
  const accepted = await patch(configMapPath("spelled"), "application/merge-patch+json;charset=utf-8", body);
  expect({ status: accepted.status, data: accepted.body.data }).toEqual({ status: 200, data: { key: "value", k: "v2" } });
});

test('a scale patch\'s Scale is decoded as any patched object: a value its Go types cannot hold is a 422 on "patch", an unknown field a warning (jsonPatcher.applyPatchToCurrentObject)', async () => {
  await kubectlOk(server, ["-n", NS, "create", "deployment", "scaled", "--image=nginx"]);
  const scale = `/apis/apps/v1/namespaces/${NS}/deployments/scaled/scale`;
  const refused = await patch(scale, MERGE_PATCH, '{"spec":{"replicas":"many"}}');
  expectStatus(
    refused,
    422,
    "Invalid",
    /^ "" is invalid: patch: Invalid value: ".*": json: cannot unmarshal string into Go struct field ScaleSpec\.spec\.replicas of type int32$/,
  );
  const warned = await patch(scale, MERGE_PATCH, '{"spec":{"replicas":2,"extra":1}}');
  expect({ status: warned.status, replicas: warned.body.spec.replicas, warnings: warned.warnings }).toEqual({
    status: 200,
    replicas: 2,
    warnings: ['unknown field "spec.extra"'],
  });
});
