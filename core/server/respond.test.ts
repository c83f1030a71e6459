import { expect, test } from "bun:test";
import { decodeProtobufObject } from "../api/protobuf/mod.ts";
import { newNotFound } from "../api/errors.ts";
import { respondError, respondPlain } from "./respond.ts";

const podNotFound = () => newNotFound({ group: "", resource: "pods" }, "web");

test("respondError() answers JSON when the Accept header is absent or names no Status form", async () => {
  for (const accept of [undefined, "text/html", "application/json;as=Table;v=v1;g=meta.k8s.io"]) {
    const response = respondError(podNotFound(), accept);
    expect(response.status).toBe(404);
    expect(response.headers.get("content-type")).toBe("application/json");
    expect((await response.json()).reason).toBe("NotFound");
  }
});

test("respondError() answers a protobuf Status when protobuf comes first in Accept", async () => {
  const response = respondError(podNotFound(), "application/vnd.kubernetes.protobuf,application/json");
  expect(response.headers.get("content-type")).toBe("application/vnd.kubernetes.protobuf");
  const decoded = decodeProtobufObject(new Uint8Array(await response.arrayBuffer()));
  expect(decoded.kind).toBe("Status");
  expect(decoded.object).toMatchObject({
    apiVersion: "v1",
    status: "Failure",
    reason: "NotFound",
    code: 404,
    details: { name: "web", kind: "pods" },
  });
  expect(decoded.object.message).toBe('pods "web" not found');
});

test("respondError() follows the Accept order: JSON listed before protobuf wins", () => {
  const response = respondError(podNotFound(), "application/json,application/vnd.kubernetes.protobuf");
  expect(response.headers.get("content-type")).toBe("application/json");
});

test("respondError() answers YAML when YAML is asked first, as kube's negotiated serializer does", async () => {
  const response = respondError(podNotFound(), "application/yaml");
  expect(response.headers.get("content-type")).toBe("application/yaml");
  expect(await response.text()).toContain("reason: NotFound");
});

test("respondPlain() writes a success Status in protobuf when that form was negotiated", async () => {
  const status = { kind: "Status", apiVersion: "v1", metadata: {}, status: "Success", code: 201 };
  const response = respondPlain(status, 201, { representation: { format: "protobuf" }, pretty: false, includeObject: "Object" });
  expect(decodeProtobufObject(new Uint8Array(await response.arrayBuffer())).object).toEqual(status);
});
