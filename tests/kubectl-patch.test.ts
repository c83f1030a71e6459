/**
 * kubectl's patching flows against kubun: patch --type json|merge|strategic, label, annotate, set image,
 * scale (the scale subresource), edit driven by KUBE_EDITOR, client-side apply; plus HTTP checks of
 * patch preconditions and errors.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { execFile } from "node:child_process";
import { chmod, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createNamespace, expectStatus, getJson, type Json, sendJson } from "./_api.ts";
import { KUBECTL } from "./_kubectl-stream.ts";
import { startServer, type TestServer } from "./harness.ts";
import { kubectlOk } from "./_kubectl.ts";

const NS = "patching";
let server: TestServer;
let workDir: string;

beforeAll(async () => {
  server = await startServer();
  workDir = await mkdtemp(join(tmpdir(), "kubun-patch-"));
  await createNamespace(server, NS);
});
afterAll(async () => {
  await server?.stop();
  if (workDir) await rm(workDir, { recursive: true, force: true });
});

const kubectlInNamespace = (args: string[]) => kubectlOk(server, ["-n", NS, ...args]);

async function getObject(kind: string, name: string): Promise<Json> {
  return JSON.parse(await kubectlInNamespace(["get", kind, name, "-o", "json"]));
}

function deploymentYaml(name: string, options: { replicas?: number; env?: string[]; labels?: string } = {}): string {
  const env = (options.env ?? []).map((e) => `        - {name: ${e}, value: "v-${e}"}`).join("\n");
  return `apiVersion: apps/v1
kind: Deployment
metadata:
  name: ${name}
  labels: {app: ${name}${options.labels ? `, ${options.labels}` : ""}}
spec:
  replicas: ${options.replicas ?? 1}
  selector:
    matchLabels: {app: ${name}}
  template:
    metadata:
      labels: {app: ${name}}
    spec:
      containers:
      - name: main
        image: nginx:1.25
${env ? `        env:\n${env}\n` : ""}`;
}

async function applyYaml(yaml: string): Promise<string> {
  const file = join(workDir, "apply.yaml");
  await writeFile(file, yaml);
  return await kubectlInNamespace(["apply", "-f", file]);
}

test("kubectl apply creates, then leaves unchanged, then removes what the file no longer has", async () => {
  expect(await applyYaml(deploymentYaml("applied", { env: ["A", "B"], labels: "extra: x" }))).toBe("deployment.apps/applied created\n");
  expect(await applyYaml(deploymentYaml("applied", { env: ["A", "B"], labels: "extra: x" }))).toBe("deployment.apps/applied unchanged\n");
  expect(await applyYaml(deploymentYaml("applied", { replicas: 3, env: ["A"] }))).toBe("deployment.apps/applied configured\n");
  const deployment = await getObject("deployment", "applied");
  expect(deployment.spec.replicas).toBe(3);
  expect(deployment.metadata.labels).toEqual({ app: "applied" });
  expect(deployment.spec.template.spec.containers[0].env).toEqual([{ name: "A", value: "v-A" }]);
  const lastApplied = JSON.parse(deployment.metadata.annotations["kubectl.kubernetes.io/last-applied-configuration"]);
  expect(lastApplied.spec.replicas).toBe(3);
});

test("kubectl patch --type json, merge and strategic change a Deployment", async () => {
  await applyYaml(deploymentYaml("patched"));
  expect(
    await kubectlInNamespace([
      "patch",
      "deployment",
      "patched",
      "--type=json",
      "-p",
      '[{"op":"replace","path":"/spec/replicas","value":4}]',
    ]),
  ).toBe(
    "deployment.apps/patched patched\n",
  );
  await kubectlInNamespace(["patch", "deployment", "patched", "--type=merge", "-p", '{"metadata":{"labels":{"merged":"yes"}}}']);
  await kubectlInNamespace([
    "patch",
    "deployment",
    "patched",
    "--type=strategic",
    "-p",
    '{"spec":{"template":{"spec":{"containers":[{"name":"side","image":"busybox"}]}}}}',
  ]);
  const deployment = await getObject("deployment", "patched");
  expect(deployment.spec.replicas).toBe(4);
  expect(deployment.metadata.labels).toEqual({ app: "patched", merged: "yes" });
  // The strategic patch merged the container list by name instead of replacing it.
  expect(deployment.spec.template.spec.containers.map((c: Json) => c.name).sort()).toEqual(["main", "side"]);
});

test("a failing JSON patch test operation is refused as kube-apiserver does", async () => {
  await applyYaml(deploymentYaml("tested"));
  const result = await server.kubectl([
    "-n",
    NS,
    "patch",
    "deployment",
    "tested",
    "--type=json",
    "-p",
    '[{"op":"test","path":"/spec/replicas","value":9}]',
  ]);
  expect(result.code).toBe(1);
  expect(result.stderr).toContain("the server rejected our request due to an error in our request");
});

test("kubectl label, annotate and set image update the object", async () => {
  await applyYaml(deploymentYaml("decorated"));
  expect(await kubectlInNamespace(["label", "deployment", "decorated", "tier=front"])).toBe("deployment.apps/decorated labeled\n");
  expect(await kubectlInNamespace(["annotate", "deployment", "decorated", "note=hello"])).toBe("deployment.apps/decorated annotated\n");
  expect(await kubectlInNamespace(["set", "image", "deployment/decorated", "main=nginx:1.26"])).toBe(
    "deployment.apps/decorated image updated\n",
  );
  await kubectlInNamespace(["label", "deployment", "decorated", "tier-"]);
  const deployment = await getObject("deployment", "decorated");
  expect(deployment.metadata.labels).toEqual({ app: "decorated" });
  expect(deployment.metadata.annotations.note).toBe("hello");
  expect(deployment.spec.template.spec.containers[0].image).toBe("nginx:1.26");
});

test("kubectl edit applies the change the editor made", async () => {
  await applyYaml(deploymentYaml("edited", { replicas: 2 }));
  const editor = join(workDir, "editor.sh");
  await writeFile(editor, "#!/bin/sh\nsed -i 's/replicas: 2/replicas: 7/' \"$1\"\n");
  await chmod(editor, 0o755);
  const result = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(KUBECTL, ["--kubeconfig", server.kubeconfig, "-n", NS, "edit", "deployment", "edited"], {
      env: { ...process.env, KUBE_EDITOR: editor },
    }, (error, stdout, stderr) => {
      resolve({ code: error ? 1 : 0, stdout, stderr });
    });
  });
  expect(result).toEqual({ code: 0, stdout: "deployment.apps/edited edited\n", stderr: "" });
  expect((await getObject("deployment", "edited")).spec.replicas).toBe(7);
});

const workloads: [string, string, string][] = [
  ["deployment", "apps/v1", "deployments"],
  ["replicaset", "apps/v1", "replicasets"],
  ["statefulset", "apps/v1", "statefulsets"],
];

test.each(workloads)("kubectl scale %s changes spec.replicas through the scale subresource", async (kind, apiVersion, resource) => {
  const name = `scaled-${kind}`;
  const manifest = deploymentYaml(name).replace(
    "kind: Deployment",
    `kind: ${kind === "statefulset" ? "StatefulSet" : kind === "replicaset" ? "ReplicaSet" : "Deployment"}`,
  );
  await applyYaml(kind === "statefulset" ? manifest.replace("spec:\n  replicas", `spec:\n  serviceName: ${name}\n  replicas`) : manifest);
  expect(await kubectlInNamespace(["scale", kind, name, "--replicas=3"])).toBe(`${kind}.apps/${name} scaled\n`);
  const scale = await getJson(server, `/apis/${apiVersion}/namespaces/${NS}/${resource}/${name}/scale`);
  expect(scale).toMatchObject({
    kind: "Scale",
    apiVersion: "autoscaling/v1",
    metadata: { name, namespace: NS },
    spec: { replicas: 3 },
    status: { selector: `app=${name}` },
  });
  expect((await getObject(kind, name)).spec.replicas).toBe(3);
});

test("kubectl scale replicationcontroller works through the core scale subresource", async () => {
  await applyYaml(`apiVersion: v1
kind: ReplicationController
metadata: {name: scaled-rc}
spec:
  replicas: 1
  selector: {app: scaled-rc}
  template:
    metadata: {labels: {app: scaled-rc}}
    spec: {containers: [{name: main, image: busybox}]}
`);
  expect(await kubectlInNamespace(["scale", "rc", "scaled-rc", "--replicas=2"])).toBe("replicationcontroller/scaled-rc scaled\n");
  const scale = await getJson(server, `/api/v1/namespaces/${NS}/replicationcontrollers/scaled-rc/scale`);
  // status.replicas is whatever the replication controller has counted by now; the selector is fixed.
  expect(scale).toMatchObject({ kind: "Scale", spec: { replicas: 2 }, status: { selector: "app=scaled-rc" } });
});

/** Reads and writes again while the controllers' own writes make the read stale (a client's retry on 409). */
async function writeFresh(path: string, write: (current: Json) => ReturnType<typeof sendJson>): ReturnType<typeof sendJson> {
  let answer = await write(await getJson(server, path));
  for (let attempt = 0; answer.status === 409 && attempt < 10; attempt++) answer = await write(await getJson(server, path));
  return answer;
}

test("a merge patch carrying a stale resourceVersion is a conflict", async () => {
  await applyYaml(deploymentYaml("guarded"));
  const path = `/apis/apps/v1/namespaces/${NS}/deployments/guarded`;
  const before = await getJson(server, path);
  const ok = await writeFresh(
    path,
    (current) =>
      sendJson(
        server,
        "PATCH",
        path,
        { metadata: { resourceVersion: current.metadata.resourceVersion }, spec: { replicas: 2 } },
        "application/merge-patch+json",
      ),
  );
  expect(ok.status).toBe(200);
  const stale = await sendJson(server, "PATCH", path, {
    metadata: { resourceVersion: before.metadata.resourceVersion },
    spec: { replicas: 5 },
  }, "application/merge-patch+json");
  expectStatus(stale, 409, "Conflict", /the object has been modified/);
});

test("a status patch changes only status", async () => {
  await applyYaml(deploymentYaml("statused"));
  const path = `/apis/apps/v1/namespaces/${NS}/deployments/statused/status`;
  const answer = await sendJson(
    server,
    "PATCH",
    path,
    { spec: { replicas: 9 }, status: { replicas: 1 } },
    "application/strategic-merge-patch+json",
  );
  expect({ status: answer.status, message: answer.body.message }).toEqual({ status: 200, message: undefined });
  expect(answer.body.status.replicas).toBe(1);
  expect(answer.body.spec.replicas).toBe(1);
});

test("PUT on the scale subresource honours the Scale's resourceVersion and rejects negative replicas", async () => {
  await applyYaml(deploymentYaml("put-scaled"));
  const path = `/apis/apps/v1/namespaces/${NS}/deployments/put-scaled/scale`;
  const scale = await getJson(server, path);
  const ok = await writeFresh(path, (current) => sendJson(server, "PUT", path, { ...current, spec: { replicas: 5 } }));
  expect(ok.status).toBe(200);
  expect(ok.body.spec.replicas).toBe(5);
  expectStatus(await sendJson(server, "PUT", path, { ...scale, spec: { replicas: 6 } }), 409, "Conflict");
  const negative = await sendJson(server, "PUT", path, { ...(await getJson(server, path)), spec: { replicas: -1 } });
  expectStatus(
    negative,
    422,
    "Invalid",
    'Scale.autoscaling "put-scaled" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0',
  );
  expectStatus(
    await sendJson(server, "GET", `/apis/apps/v1/namespaces/${NS}/deployments/missing/scale`),
    404,
    "NotFound",
    'deployments/scale.apps "missing" not found',
  );
});

test("patch errors read as kube-apiserver's", async () => {
  await applyYaml(deploymentYaml("errors"));
  const path = `/apis/apps/v1/namespaces/${NS}/deployments/errors`;
  const badPointer = await sendJson(server, "PATCH", path, [{ op: "remove", path: "/spec/nothing" }], "application/json-patch+json");
  expectStatus(badPointer, 422, "Invalid", "the server rejected our request due to an error in our request");
  const notAList = await sendJson(server, "PATCH", path, { op: "remove" }, "application/json-patch+json");
  // fieldValidation defaults to Warn, under which applyJSPatch decodes the patch strictly into []jsonPatchOp.
  expectStatus(
    notAList,
    400,
    "BadRequest",
    "error decoding patch: json: cannot unmarshal object into Go value of type []handlers.jsonPatchOp",
  );
  const badRetainKeys = await sendJson(server, "PATCH", path, { spec: { $retainKeys: "x" } }, "application/strategic-merge-patch+json");
  expectStatus(badRetainKeys, 400, "BadRequest", "invalid patch format of retainKeys");
  const unknownType = await sendJson(server, "PATCH", path, {}, "application/x-unknown");
  expectStatus(unknownType, 415, "UnsupportedMediaType", /accepted media types include: application\/json-patch\+json/);
  const missing = await sendJson(server, "PATCH", `/apis/apps/v1/namespaces/${NS}/deployments/missing`, {}, "application/merge-patch+json");
  expectStatus(missing, 404, "NotFound", 'deployments.apps "missing" not found');
});

test("fieldManager is accepted on patches", async () => {
  await applyYaml(deploymentYaml("managed"));
  const answer = await sendJson(server, "PATCH", `/apis/apps/v1/namespaces/${NS}/deployments/managed?fieldManager=tester`, {
    spec: { replicas: 2 },
  }, "application/merge-patch+json");
  expect(answer.status).toBe(200);
  expect(answer.body.spec.replicas).toBe(2);
});

test("force on a non-apply patch is refused with kube's 422 and changes nothing", async () => {
  await applyYaml(deploymentYaml("forced"));
  const path = `/apis/apps/v1/namespaces/${NS}/deployments/forced`;
  const before = (await getJson(server, path)).spec.replicas;
  for (const value of ["true", "false"]) {
    const answer = await sendJson(
      server,
      "PATCH",
      `${path}?force=${value}`,
      { spec: { replicas: before + 3 } },
      "application/merge-patch+json",
    );
    expectStatus(
      answer,
      422,
      "Invalid",
      'PatchOptions.meta.k8s.io "" is invalid: force: Forbidden: may not be specified for non-apply patch',
    );
  }
  expect((await getJson(server, path)).spec.replicas).toBe(before);
});

test("removing the last label and annotation leaves no empty map and no managedFields entry for their managers (ObjectMeta's omitempty)", async () => {
  await kubectlInNamespace(["create", "configmap", "bare", "--from-literal=k=v"]);
  await kubectlInNamespace(["label", "configmap", "bare", "tier=front"]);
  await kubectlInNamespace(["annotate", "configmap", "bare", "note=hello"]);
  await kubectlInNamespace(["label", "configmap", "bare", "tier-"]);
  await kubectlInNamespace(["annotate", "configmap", "bare", "note-"]);
  const configMap = await getJson(server, `/api/v1/namespaces/${NS}/configmaps/bare`);
  expect(Object.keys(configMap.metadata)).not.toContain("labels");
  expect(Object.keys(configMap.metadata)).not.toContain("annotations");
  expect(configMap.metadata.managedFields.map((entry: Json) => entry.manager)).toEqual(["kubectl-create"]);
});

test("empty labels, annotations, finalizers and ownerReferences and an empty generateName in a body are dropped, as decoding into ObjectMeta does", async () => {
  const created = await sendJson(server, "POST", `/api/v1/namespaces/${NS}/configmaps`, {
    metadata: { name: "empties", labels: {}, annotations: {}, finalizers: [], ownerReferences: [], generateName: "" },
  });
  expect(created.status).toBe(201);
  for (const key of ["labels", "annotations", "finalizers", "ownerReferences", "generateName"]) {
    expect([key, Object.keys(created.body.metadata).includes(key)]).toEqual([key, false]);
  }
  expect(JSON.stringify(created.body.metadata.managedFields ?? [])).not.toContain("f:metadata");
});
