/**
 * @kubernetes/client-node 1.4.0 over every kind its typed APIs offer in a version kubun (kube 1.26) serves, as
 * client-python-sweep.test.ts does for Python: the typed sweep (tests/_client-node-sweep.ts), the subresources with
 * their own calls (eviction, binding, token, ephemeral containers, finalize, approval, reviews), Watch, an informer
 * across a 410, Log, KubernetesObjectApi over a CRD and flowcontrol v1beta3, and Metrics. The client checks nothing
 * of an answer's shape itself, so each answer's raw JSON is compared with the client's model
 * (tests/_client-node-shapes.ts).
 *
 * Not driven: classes of versions 1.26 does not serve (v1beta*, v1alpha*, ResourceV1Api, ...: 404 as on kube;
 * FlowcontrolApiserverV1Api stands for them), connect* and Exec/Attach/PortForward (need a node agent).
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import {
  ApiException,
  AppsV1Api,
  AuthenticationV1Api,
  AuthorizationV1Api,
  CertificatesV1Api,
  CoreV1Api,
  Exec,
  FlowcontrolApiserverV1Api,
  KubeConfig,
  type KubernetesObject,
  KubernetesObjectApi,
  Log,
  makeInformer,
  Metrics,
  PatchStrategy,
  setHeaderOptions,
  type V1ConfigMap,
  type V1ManagedFieldsEntry,
  Watch,
} from "@kubernetes/client-node";
import { execFileSync } from "node:child_process";
import { Writable } from "node:stream";
import { createNamespace, getJson, type Json, sendJson } from "./_api.ts";
import { sizedCrd } from "./_client-node-kinds.ts";
import { AnswerChecker } from "./_client-node-recorder.ts";
import { shapeProblems } from "./_client-node-shapes.ts";
import { runTypedSweep } from "./_client-node-sweep.ts";
import { startServer, type TestServer } from "./harness.ts";

const NS = "sweep";
let server: TestServer;
let kc: KubeConfig;

beforeAll(async () => {
  // Three seconds of watch history, so the informer's resourceVersion expires within the test.
  server = await startServer(["--watch-cache-history", "3s", "--etcd-compaction-interval", "1s"]);
  await createNamespace(server, NS);
  kc = new KubeConfig();
  kc.loadFromFile(server.kubeconfig);
});
afterAll(async () => {
  await server?.stop();
});

function certificateRequest(): string {
  const pem = execFileSync("openssl", [
    "req",
    "-new",
    "-newkey",
    "ec",
    "-pkeyopt",
    "ec_paramgen_curve:prime256v1",
    "-nodes",
    "-keyout",
    "/dev/null",
    "-subj",
    "/CN=sweep",
  ], { stdio: ["ignore", "pipe", "ignore"] });
  return Buffer.from(pem).toString("base64");
}

async function untilServed(path: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if ((await sendJson(server, "GET", path)).status === 200) return;
    await Bun.sleep(50);
  }
  throw new Error(`${path} never served`);
}

async function apiErrorOf(call: Promise<unknown>): Promise<ApiException<unknown>> {
  try {
    await call;
  } catch (error) {
    if (error instanceof ApiException) return error;
    throw error;
  }
  throw new Error("expected an ApiException");
}

/** Runs a read-modify-write again when a controller wrote the object in between (409), as clients do. */
async function againOnConflict<T>(run: () => Promise<T>): Promise<T> {
  for (let attempt = 1;; attempt++) {
    try {
      return await run();
    } catch (error) {
      if (!(error instanceof ApiException) || error.code !== 409 || attempt === 10) throw error;
    }
  }
}

/** Waits for a condition driven by the client's callbacks; fails after a bounded number of checks. */
async function eventually(condition: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 300; i++) {
    if (condition()) return;
    await Bun.sleep(50);
  }
  throw new Error(`never happened: ${what}`);
}

test(
  "every typed create, read, list, status, scale, patch, replace and delete method of the JavaScript client gets an answer of its model's shape",
  async () => {
    const { calls, failures } = await runTypedSweep(kc, NS, certificateRequest());
    expect(failures).toEqual([]);
    expect(calls).toBeGreaterThan(700);
  },
  90_000,
);

test("a status write stores and owns the client's labels and annotations, except those its kind's status strategy resets (deploymentStatusStrategy: labels)", async () => {
  const apps = kc.makeApiClient(AppsV1Api);
  const labels = { app: "status-meta" };
  const template = { metadata: { labels }, spec: { containers: [{ name: "c", image: "nginx" }] } };
  const spec = { replicas: 1, selector: { matchLabels: labels }, template };
  const where = { name: "status-meta", namespace: NS, fieldManager: "status-writer" };
  await apps.createNamespacedReplicaSet({ namespace: NS, body: { metadata: { name: "status-meta" }, spec } });
  await apps.createNamespacedDeployment({ namespace: NS, body: { metadata: { name: "status-meta", labels }, spec } });
  const relabelled = { labels: { ...labels, by: "status" }, annotations: { by: "status" } };
  const rewritten = <T extends KubernetesObject>(read: () => Promise<T>, write: (current: T) => Promise<T>): Promise<T> =>
    againOnConflict(async () => {
      const current = await read();
      return await write({ ...current, metadata: { ...current.metadata, ...relabelled } });
    });
  const writtenReplicaSet = await rewritten(
    () => apps.readNamespacedReplicaSet(where),
    (body) =>
      apps.replaceNamespacedReplicaSetStatus({ ...where, body: { ...body, spec: { ...spec, replicas: 7 }, status: { replicas: 1 } } }),
  );
  expect([writtenReplicaSet.metadata?.labels, writtenReplicaSet.metadata?.annotations, writtenReplicaSet.spec?.replicas]).toEqual([
    relabelled.labels,
    relabelled.annotations,
    1,
  ]);
  const writtenDeployment = await rewritten(
    () => apps.readNamespacedDeployment(where),
    (body) => apps.replaceNamespacedDeploymentStatus({ ...where, body: { ...body, status: { replicas: 1 } } }),
  );
  expect(writtenDeployment.metadata?.labels).toEqual(labels);
  expect(writtenDeployment.metadata?.annotations).toMatchObject(relabelled.annotations);
  // The status writer owns the metadata it changed, but what the strategy's GetResetFields names (ResetFieldsFor).
  const ownedMetadata = (entries: V1ManagedFieldsEntry[] | undefined) =>
    Object.keys(entries?.find((entry) => entry.manager === "status-writer")?.fieldsV1?.["f:metadata"] ?? {}).sort();
  expect(ownedMetadata(writtenReplicaSet.metadata?.managedFields)).toEqual(["f:annotations", "f:labels"]);
  expect(ownedMetadata(writtenDeployment.metadata?.managedFields)).toEqual(["f:annotations"]);
  await apps.deleteNamespacedReplicaSet({ name: "status-meta", namespace: NS });
  await apps.deleteNamespacedDeployment({ name: "status-meta", namespace: NS });
});

test("the subresources with calls of their own: eviction, binding, token, ephemeral containers, namespace finalize, approval, reviews, componentstatuses", async () => {
  const checker = new AnswerChecker();
  const options = checker.options;
  const core = kc.makeApiClient(CoreV1Api);
  const pod = (name: string) => ({ metadata: { name }, spec: { containers: [{ name: "c", image: "nginx" }] } });
  await core.createNamespacedPod({ namespace: NS, body: pod("evicted") });
  await core.createNamespacedPod({ namespace: NS, body: pod("bound") });
  await core.createNamespacedPod({ namespace: NS, body: pod("bound-legacy") });
  await core.createNamespacedPod({ namespace: NS, body: pod("debugged") });
  await checker.call(
    "createNamespacedPodEviction",
    () =>
      core.createNamespacedPodEviction({ name: "evicted", namespace: NS, body: { metadata: { name: "evicted", namespace: NS } } }, options),
  );
  const target = { apiVersion: "v1", kind: "Node", name: "n1" };
  await checker.call(
    "createNamespacedPodBinding",
    () => core.createNamespacedPodBinding({ name: "bound", namespace: NS, body: { metadata: { name: "bound" }, target } }, options),
  );
  await checker.call(
    "createNamespacedBinding",
    () => core.createNamespacedBinding({ namespace: NS, body: { metadata: { name: "bound-legacy" }, target } }, options),
  );
  expect((await core.readNamespacedPod({ name: "bound", namespace: NS })).spec?.nodeName).toBe("n1");
  const token = await checker.call(
    "createNamespacedServiceAccountToken",
    () => core.createNamespacedServiceAccountToken({ name: "default", namespace: NS, body: { spec: { audiences: ["sweep"] } } }, options),
  );
  expect(token?.status?.token).toBeString();

  const ephemeral = { name: "debugger", image: "busybox", targetContainerName: "c" };
  const debugged = { name: "debugged", namespace: NS };
  await checker.call("readNamespacedPodEphemeralcontainers", () => core.readNamespacedPodEphemeralcontainers(debugged, options), "Pod");
  await checker.call(
    "replaceNamespacedPodEphemeralcontainers",
    () =>
      againOnConflict(async () => {
        const current = await core.readNamespacedPodEphemeralcontainers(debugged);
        const body = { ...current, spec: { ...current.spec!, ephemeralContainers: [ephemeral] } };
        return await core.replaceNamespacedPodEphemeralcontainers({ ...debugged, body }, options);
      }),
    "Pod",
    { spec: { ephemeralContainers: [ephemeral] } },
  );
  const second = { ...ephemeral, name: "debugger-2" };
  await checker.call(
    "patchNamespacedPodEphemeralcontainers",
    () =>
      core.patchNamespacedPodEphemeralcontainers(
        { name: "debugged", namespace: NS, body: [{ op: "add", path: "/spec/ephemeralContainers/-", value: second }] },
        checker.withPatchType(PatchStrategy.JsonPatch),
      ),
    "Pod",
    { spec: { ephemeralContainers: [ephemeral, second] } },
  );

  // Only the finalize subresource changes spec.finalizers (namespaceStrategy.PrepareForUpdate); it writes the
  // client's metadata too, and only status stays as stored (namespaceFinalizeStrategy.PrepareForUpdate).
  await core.createNamespace({ body: { metadata: { name: "finalized" } } });
  const namespace = await core.readNamespace({ name: "finalized" });
  const replaced = await checker.call(
    "replaceNamespace",
    () => core.replaceNamespace({ name: "finalized", body: { ...namespace, spec: { finalizers: [] } } }, options),
    "Namespace",
    { spec: { finalizers: ["kubernetes"] } },
  );
  const labels = { ...replaced.metadata.labels, finalized: "yes" };
  await checker.call(
    "replaceNamespaceFinalize",
    () =>
      core.replaceNamespaceFinalize({
        name: "finalized",
        body: { ...replaced, metadata: { ...replaced.metadata, labels }, spec: { finalizers: [] }, status: { phase: "Terminating" } },
      }, options),
    "Namespace",
    { metadata: { labels }, spec: { finalizers: [] }, status: { phase: "Active" } },
  );

  const certificates = kc.makeApiClient(CertificatesV1Api);
  const csr = {
    metadata: { name: "approved" },
    spec: { request: certificateRequest(), signerName: "example.com/s", usages: ["client auth"] },
  };
  await certificates.createCertificateSigningRequest({ body: csr });
  const read = await checker.call(
    "readCertificateSigningRequestApproval",
    () => certificates.readCertificateSigningRequestApproval({ name: "approved" }, options),
    "CertificateSigningRequest",
  );
  const approved = { type: "Approved", status: "True", reason: "Sweep", message: "m" };
  await checker.call(
    "replaceCertificateSigningRequestApproval",
    () =>
      certificates.replaceCertificateSigningRequestApproval(
        { name: "approved", body: { ...read, status: { conditions: [approved] } } },
        options,
      ),
    "CertificateSigningRequest",
    { status: { conditions: [approved] } },
  );

  const authentication = kc.makeApiClient(AuthenticationV1Api);
  await checker.call(
    "createTokenReview",
    () => authentication.createTokenReview({ body: { spec: { token: token.status.token, audiences: ["sweep"] } } }, options),
    "TokenReview",
    {
      status: { authenticated: true },
    },
  );
  const authorization = kc.makeApiClient(AuthorizationV1Api);
  const attributes = { namespace: NS, verb: "get", resource: "pods" };
  // The server runs kube-apiserver's default --authorization-mode, AlwaysAllow: everyone is allowed.
  await checker.call(
    "createSelfSubjectAccessReview",
    () => authorization.createSelfSubjectAccessReview({ body: { spec: { resourceAttributes: attributes } } }, options),
    "SelfSubjectAccessReview",
    {
      status: { allowed: true },
    },
  );
  await checker.call(
    "createSubjectAccessReview",
    () =>
      authorization.createSubjectAccessReview({
        body: { spec: { user: "admin", groups: ["system:masters"], resourceAttributes: attributes } },
      }, options),
    "SubjectAccessReview",
    { status: { allowed: true } },
  );
  await checker.call(
    "createNamespacedLocalSubjectAccessReview",
    () =>
      authorization.createNamespacedLocalSubjectAccessReview({
        namespace: NS,
        body: { metadata: { namespace: NS }, spec: { user: "nobody", resourceAttributes: attributes } },
      }, options),
    "LocalSubjectAccessReview",
    { status: { allowed: true } },
  );
  await checker.call(
    "createSelfSubjectRulesReview",
    () => authorization.createSelfSubjectRulesReview({ body: { spec: { namespace: NS } } }, options),
    "SelfSubjectRulesReview",
  );
  await checker.call("listComponentStatus", () => core.listComponentStatus({}, options), "ComponentStatus");
  await checker.call("readComponentStatus", () => core.readComponentStatus({ name: "etcd-0" }, options), "ComponentStatus");
  expect(checker.failures).toEqual([]);

  // SelfSubjectReview is authentication.k8s.io/v1 from 1.28 and flowcontrol v1 from 1.29: kube 1.26 answers 404.
  const review = await apiErrorOf(authentication.createSelfSubjectReview({ body: {} }));
  const flowcontrol = await apiErrorOf(kc.makeApiClient(FlowcontrolApiserverV1Api).listFlowSchema());
  expect([review.code, flowcontrol.code]).toEqual([404, 404]);
  expect(JSON.parse(flowcontrol.body as string)).toMatchObject({
    kind: "Status",
    reason: "NotFound",
    message: "the server could not find the requested resource",
  });
});

test("typed lists page with limit and _continue, and select by field and label, with the list model's shape", async () => {
  const checker = new AnswerChecker();
  const core = kc.makeApiClient(CoreV1Api);
  for (const name of ["page-a", "page-b", "page-c"]) {
    await core.createNamespacedConfigMap({ namespace: NS, body: { metadata: { name, labels: { paged: "yes" } }, data: { name } } });
  }
  const names: string[] = [];
  let token: string | undefined;
  do {
    const page = await checker.call(
      "listNamespacedConfigMap (paged)",
      () => core.listNamespacedConfigMap({ namespace: NS, labelSelector: "paged=yes", limit: 2, _continue: token }, checker.options),
      "ConfigMap",
    );
    names.push(...page.items.map((item: V1ConfigMap) => item.metadata?.name));
    token = page.metadata?._continue;
    // kube's etcd3 GetList counts the remaining items only for a list without selectors.
    expect(page.metadata?.remainingItemCount).toBeUndefined();
  } while (token);
  expect(names).toEqual(["page-a", "page-b", "page-c"]);
  const selected = await checker.call(
    "listConfigMapForAllNamespaces (fieldSelector)",
    () => core.listConfigMapForAllNamespaces({ fieldSelector: `metadata.name=page-b,metadata.namespace=${NS}` }, checker.options),
    "ConfigMap",
  );
  expect(selected.items.map((item: V1ConfigMap) => item.data)).toEqual([{ name: "page-b" }]);
  await checker.call(
    "deleteCollectionNamespacedConfigMap",
    () => core.deleteCollectionNamespacedConfigMap({ namespace: NS, labelSelector: "paged=yes" }, checker.options),
    "ConfigMap",
  );
  expect(checker.failures).toEqual([]);
  expect((await core.listNamespacedConfigMap({ namespace: NS, labelSelector: "paged=yes" })).items).toEqual([]);
});

test("Watch with allowWatchBookmarks hands over ADDED, MODIFIED and DELETED objects of the ConfigMap model's shape", async () => {
  const core = kc.makeApiClient(CoreV1Api);
  const seen: string[] = [];
  const problems: string[] = [];
  const controller = await new Watch(kc).watch(
    `/api/v1/namespaces/${NS}/configmaps`,
    { labelSelector: "watched=yes", allowWatchBookmarks: true },
    (phase, obj) => {
      seen.push(phase === "BOOKMARK" ? phase : `${phase} ${obj.metadata.name}`);
      if (phase !== "BOOKMARK") problems.push(...shapeProblems(obj, "V1ConfigMap"));
    },
    () => {},
  );
  const body: V1ConfigMap = { metadata: { name: "watched", labels: { watched: "yes" } }, data: { a: "1" } };
  await core.createNamespacedConfigMap({ namespace: NS, body });
  await core.patchNamespacedConfigMap(
    { name: "watched", namespace: NS, body: { data: { a: "2" } } },
    setHeaderOptions("Content-Type", PatchStrategy.MergePatch),
  );
  await core.deleteNamespacedConfigMap({ name: "watched", namespace: NS });
  await eventually(() => seen.filter((phase) => phase !== "BOOKMARK").length >= 3, "three watch events");
  controller.abort();
  expect(seen.filter((phase) => phase !== "BOOKMARK")).toEqual(["ADDED watched", "MODIFIED watched", "DELETED watched"]);
  expect(problems).toEqual([]);
});

test(
  "an informer reports adds, updates and deletes, and after its resourceVersion expired (410) relists and reports what changed",
  async () => {
    const core = kc.makeApiClient(CoreV1Api);
    let lists = 0;
    const path = `/api/v1/namespaces/${NS}/configmaps`;
    const informer = makeInformer(kc, path, () => {
      lists++;
      return core.listNamespacedConfigMap({ namespace: NS, labelSelector: "informed=yes" });
    }, "informed=yes");
    const events: string[] = [];
    const errors: unknown[] = [];
    for (const verb of ["add", "update", "delete"] as const) {
      informer.on(verb, (obj: KubernetesObject) => events.push(`${verb} ${obj.metadata?.name}`));
    }
    // stop() aborts the watch, and the client hands its own AbortError to the error callbacks (against kube too).
    informer.on("error", (error) => {
      if ((error as Error | undefined)?.name !== "AbortError") errors.push(error);
    });
    const labelled = (name: string): V1ConfigMap => ({ metadata: { name, labels: { informed: "yes" } }, data: { a: "1" } });
    await core.createNamespacedConfigMap({ namespace: NS, body: labelled("first") });
    await informer.start();
    await eventually(() => events.includes("add first"), "the listed object");
    await core.createNamespacedConfigMap({ namespace: NS, body: labelled("second") });
    await core.patchNamespacedConfigMap(
      { name: "second", namespace: NS, body: { data: { a: "2" } } },
      setHeaderOptions("Content-Type", PatchStrategy.MergePatch),
    );
    await core.deleteNamespacedConfigMap({ name: "first", namespace: NS });
    await eventually(() => events.includes("delete first"), "the watched delete");
    expect(events).toEqual(["add first", "add second", "update second", "delete first"]);

    await informer.stop();
    const stale = (await core.readNamespacedConfigMap({ name: "second", namespace: NS })).metadata!.resourceVersion!;
    await core.createNamespacedConfigMap({ namespace: NS, body: labelled("while-stopped") });
    await core.deleteNamespacedConfigMap({ name: "second", namespace: NS });
    // Until the compactor dropped the informer's resourceVersion from the history.
    for (let i = 0; i < 60; i++) {
      const answer = await sendJson(server, "GET", `${path}?resourceVersion=${stale}&resourceVersionMatch=Exact`);
      if (answer.status === 410) break;
      await core.createNamespacedConfigMap({ namespace: NS, body: { metadata: { name: `filler-${i}` } } });
      await Bun.sleep(250);
    }
    events.length = 0;
    await informer.start();
    await eventually(() => events.includes("add while-stopped") && events.includes("delete second"), "the relist after 410");
    await informer.stop();
    expect([lists, errors]).toEqual([2, []]);
    expect(informer.list(NS).map((obj) => obj.metadata?.name)).toEqual(["while-stopped"]);
  },
  60_000,
);

test("Log streams a simulated kubelet's log with tailLines and timestamps; a pod no node runs answers kube's 204 (StreamObject), which the client raises; Exec gets kube's dial failure", async () => {
  const nodes = await startServer(["--simulated-nodes=1"]);
  try {
    const config = new KubeConfig();
    config.loadFromFile(nodes.kubeconfig);
    const core = config.makeApiClient(CoreV1Api);
    const containers = [{ name: "c", image: "nginx" }];
    const annotations = { "kubun.io/simulated-log": "first line\nsecond line\nthird line\n" };
    await core.createNamespacedPod({ namespace: "default", body: { metadata: { name: "talker", annotations }, spec: { containers } } });
    await core.createNamespacedPod({
      namespace: "default",
      body: { metadata: { name: "unbound" }, spec: { schedulerName: "nobody", containers } },
    });
    for (let i = 0; i < 200 && (await core.readNamespacedPod({ name: "talker", namespace: "default" })).status?.phase !== "Running"; i++) {
      await Bun.sleep(50);
    }
    const logOf = async (options: Record<string, unknown>) => {
      let text = "";
      const sink = new Writable({
        write: (chunk, _encoding, done) => {
          text += chunk;
          done();
        },
      });
      const finished = new Promise((resolve) => sink.on("finish", resolve));
      await new Log(config).log("default", "talker", "c", sink, options);
      await finished;
      return text;
    };
    expect(await logOf({})).toBe("first line\nsecond line\nthird line\n");
    expect(await logOf({ tailLines: 1, timestamps: true })).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{9}Z third line\n$/);
    const sink = new Writable({ write: (_chunk, _encoding, done) => done() });
    // The client streams only a 200 and raises for anything else, on kube-apiserver as well.
    expect((await apiErrorOf(new Log(config).log("default", "unbound", "c", sink))).code).toBe(204);
    expect((await apiErrorOf(new Log(config).log("default", "talker", "missing", sink))).code).toBe(400);

    // Exec's WebSocket upgrade gets kube's answers: 500 where the kubelet cannot be dialled (UpgradeAwareHandler's
    // "error dialing backend"), 404 for a missing pod; the client reports them as the socket's error.
    const execError = async (pod: string) => {
      try {
        await new Exec(config).exec("default", pod, "c", ["ls"], sink, sink, null, false);
      } catch (error) {
        return (error as { message?: string }).message;
      }
      throw new Error("exec succeeded");
    };
    expect([await execError("talker"), await execError("ghost")]).toEqual([
      "Unexpected server response: 500",
      "Unexpected server response: 404",
    ]);
  } finally {
    await nodes.stop();
  }
});

test("KubernetesObjectApi creates, reads, lists, patches and deletes a custom resource and a flowcontrol v1beta3 FlowSchema by apiVersion and kind", async () => {
  const objects = KubernetesObjectApi.makeApiClient(kc);
  const crd = { apiVersion: "apiextensions.k8s.io/v1", kind: "CustomResourceDefinition", ...sizedCrd("Gadget") };
  await objects.create(crd);
  await untilServed("/apis/example.com/v1");
  const gadget = { apiVersion: "example.com/v1", kind: "Gadget", metadata: { name: "g", namespace: NS }, spec: { size: 1 } };
  expect(((await objects.create(gadget)) as KubernetesObject).metadata?.uid).toBeString();
  expect(((await objects.read(gadget)) as Json).spec).toEqual({ size: 1 });
  expect((await objects.list("example.com/v1", "Gadget", NS)).items.map((item) => item.metadata?.name)).toEqual(["g"]);
  const merged = await objects.patch(
    { ...gadget, spec: { size: 2 } },
    undefined,
    undefined,
    undefined,
    undefined,
    PatchStrategy.MergePatch,
  );
  expect((merged as Json).spec).toEqual({ size: 2 });
  const applied = await objects.patch(
    { ...gadget, spec: { color: "red" } },
    undefined,
    undefined,
    "js-sweep",
    true,
    PatchStrategy.ServerSideApply,
  );
  expect((applied as Json).spec).toMatchObject({ color: "red" });
  await objects.delete(gadget);
  await objects.delete(crd);

  const flowSchema = {
    apiVersion: "flowcontrol.apiserver.k8s.io/v1beta3",
    kind: "FlowSchema",
    metadata: { name: "generic-sweep" },
    spec: {
      priorityLevelConfiguration: { name: "global-default" },
      matchingPrecedence: 9000,
      distinguisherMethod: { type: "ByUser" },
      rules: [{
        subjects: [{ kind: "User", user: { name: "sweep-user" } }],
        nonResourceRules: [{ verbs: ["get"], nonResourceURLs: ["/sweep"] }],
      }],
    },
  };
  await objects.create(flowSchema);
  const raw = await getJson(server, "/apis/flowcontrol.apiserver.k8s.io/v1beta3/flowschemas/generic-sweep");
  const list = await getJson(server, "/apis/flowcontrol.apiserver.k8s.io/v1beta3/prioritylevelconfigurations");
  expect([...shapeProblems(raw, "V1beta3FlowSchema"), ...shapeProblems(list, "V1beta3PriorityLevelConfigurationList")]).toEqual([]);
  expect(((await objects.read(flowSchema)) as Json).spec.matchingPrecedence).toBe(9000);
  await objects.delete(flowSchema);
});

test("Metrics gets kube's 404 Status where no metrics.k8s.io API is served", async () => {
  const error = await apiErrorOf(new Metrics(kc).getNodeMetrics());
  expect(error.code).toBe(404);
});
