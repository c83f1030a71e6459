/**
 * Debian's ruby-kubeclient (kubeclient 4.9: rest-client for requests, the http gem for watches) against kubun, driven
 * as Ruby users drive it: Kubeclient::Config with the admin kubeconfig or a token kubeconfig, one
 * Kubeclient::Client per API group (discovery defines its get_*, watch_*, create_*, … methods), the typed calls with
 * their options, and kubeclient's error classes carrying kube's Status messages.
 * Each check runs tests/testdata/ruby_client_checks.rb in its own namespace and prints what it observed.
 * Where kubeclient itself falls short against kube-apiserver too, the check shows kube's answer to what it sends:
 * apply_* of a Kubeclient::Resource sends a JSON string (RecursiveOpenStruct has no to_json of its own), and
 * WatchStream raises with the HTTP reason phrase rather than the Status message.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { createNamespace, type Json } from "./_api.ts";
import { scratchDir, writeUserKubeconfig } from "./_authn.ts";
import { startServer, type TestServer } from "./harness.ts";

const RUBY = "/usr/bin/ruby";
const CHECKS = resolve(import.meta.dir, "testdata/ruby_client_checks.rb");
const TOKEN = "ruby-admin-token";

let server: TestServer;
let shortHistory: TestServer;
let scratch: Awaited<ReturnType<typeof scratchDir>>;
let tokenKubeconfig: string;

beforeAll(async () => {
  scratch = await scratchDir();
  const tokens = join(scratch.path, "tokens.csv");
  await writeFile(tokens, `${TOKEN},ruby-admin,uid-ruby,system:masters\n`);
  [server, shortHistory] = await Promise.all([
    startServer(["--simulated-nodes=1", `--token-auth-file=${tokens}`]),
    // Three seconds of history, so that a watch from an older resourceVersion soon gets 410 (on etcd, a compaction
    // every second).
    startServer(["--watch-cache-history", "3s", "--etcd-compaction-interval", "1s"]),
  ]);
  tokenKubeconfig = await writeUserKubeconfig(server, scratch.path, "ruby", { token: TOKEN });
});
afterAll(async () => {
  await Promise.all([server?.stop(), shortHistory?.stop()]);
  await scratch?.remove();
});

/** Runs one check in its own namespace; fails with the script's stderr when it does not exit 0. */
async function runCheck(check: string, on = server, kubeconfig = on.kubeconfig): Promise<Json> {
  const namespace = `rb-${check.replaceAll("_", "-")}`;
  await createNamespace(on, namespace);
  const child = Bun.spawn([RUBY, CHECKS, kubeconfig, namespace, check], { stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  expect({ check, code, stderr: code === 0 ? "" : stderr }).toEqual({ check, code: 0, stderr: "" });
  return JSON.parse(stdout);
}

/** What error_of reports: kubeclient's exception class, the HTTP code and the message it took from kube's Status. */
const httpError = (code: number, message: string | ReturnType<typeof expect.stringMatching>) => ({
  class: code === 404 ? "Kubeclient::ResourceNotFoundError" : "Kubeclient::HttpError",
  code,
  message,
});

test("discover and api_valid? read the core and group discovery documents and define the entity methods", async () => {
  expect(await runCheck("discovery")).toEqual({
    coreValid: true,
    groupsValid: { apps: true, batch: true, "rbac.authorization.k8s.io": true, "networking.k8s.io": true },
    unservedVersionValid: false,
    coreVersions: ["v1"],
    appsPreferred: "apps/v1",
    coreMethods: [
      "get_pods",
      "get_pod",
      "watch_pods",
      "get_config_maps",
      "get_endpoints",
      "get_endpoint",
      "get_component_statuses",
      "create_service",
      "update_secret",
      "patch_node",
      "apply_namespace",
      "delete_service_account",
    ],
    appsMethods: ["get_deployments", "get_replica_sets", "get_stateful_sets", "get_daemon_sets", "get_controller_revisions"],
  });
});

test("a token kubeconfig, bearer_token and bearer_token_file authenticate; a wrong token is HttpError 401 on get, discover and watch", async () => {
  const unauthorized = httpError(401, "Unauthorized");
  expect(await runCheck("bearer_token", server, tokenKubeconfig)).toEqual({
    certificate: false,
    token: "rb-bearer-token",
    tokenFile: "ConfigMap",
    badToken: unauthorized,
    badTokenDiscovery: unauthorized,
    badTokenWatch: unauthorized,
  });
});

test("create_*, update_*, the three patch_* kinds and get_* as :ros, :raw, :parsed and :parsed_symbolized; kube's Status messages in HttpError", async () => {
  expect(await runCheck("crud")).toEqual({
    created: ["ConfigMap", "v1", ["rest-client"]],
    updated: "updated",
    stale: httpError(
      409,
      'Operation cannot be fulfilled on configmaps "crud": the object has been modified; please apply your changes to the latest version and try again',
    ),
    strategic: { key: "updated", extra: "smp" },
    merge: { key: "updated" },
    json: "json",
    failedTest: httpError(422, "the server rejected our request due to an error in our request"),
    raw: { key: "json" },
    parsed: "crud",
    symbolized: { key: "json" },
    listParsed: "ConfigMapList",
    alreadyExists: httpError(409, 'configmaps "crud" already exists'),
    invalid: httpError(
      422,
      expect.stringMatching(/^ConfigMap "Not_Valid" is invalid: metadata\.name: Invalid value: "Not_Valid": a lowercase RFC 1123/),
    ),
    missing: httpError(404, 'configmaps "missing" not found'),
    missingNamespace: httpError(404, 'namespaces "nowhere" not found'),
    notFoundText: `HTTP status code 404, configmaps "missing" not found for GET ${server.url}/api/v1/namespaces/rb-crud/configmaps/missing`,
  });
});

test("apply_* is server-side apply: field_manager owns the fields, force: false conflicts, force takes them over; a body that is not an object is applyPatcher's 400", async () => {
  expect(await runCheck("server_side_apply")).toEqual({
    first: ["first", [["ruby-first", "Apply"]]],
    conflict: httpError(409, 'Apply failed with 1 conflict: conflict with "ruby-first": .data.key'),
    forced: ["ruby-second"],
    resourceArgument: httpError(
      400,
      "error decoding YAML: error unmarshaling JSON: while decoding JSON: json: cannot unmarshal string into Go value of type map[string]interface {}",
    ),
  });
});

test("delete_* with delete_options: propagation policies, preconditions, dryRun and kube's refusals", async () => {
  expect(await runCheck("delete_options")).toEqual({
    background: ["Status", "Success", { name: "background", kind: "configmaps" }],
    orphaned: ["dependent", null],
    foreground: ["Deployment", ["foregroundDeletion"], true],
    precondition: httpError(
      409,
      expect.stringMatching(
        /^Operation cannot be fulfilled on ConfigMap "dependent": the UID in the precondition \(other\) does not match the UID in record/,
      ),
    ),
    badPolicy: httpError(
      422,
      'DeleteOptions.meta.k8s.io "" is invalid: propagationPolicy: Unsupported value: "Sideways": supported values: "Foreground", "Background", "Orphan", "nil"',
    ),
    dryRun: "Success",
    stillThere: "dependent",
    missing: httpError(404, 'configmaps "gone" not found'),
  });
});

test("label and field selectors, limit/continue paging to EntityList#last?, and lists at a resourceVersion", async () => {
  expect(await runCheck("selectors_and_paging")).toEqual({
    pages: [["page-0", "page-1"], ["page-2", "page-3"], ["page-4"]],
    labelled: ["page-0", "page-2", "page-4"],
    setBased: ["page-1", "page-3"],
    fieldSelected: ["page-3"],
    list: ["ConfigMap", true, null, true],
    atVersion: ["page-1", "page-3"],
    anyVersion: 5,
    badLabels: httpError(400, "found '==', expected: ',' or 'end of string'"),
    badField: httpError(400, '"data.key" is not a known field selector: only "metadata.name", "metadata.namespace"'),
    badContinue: httpError(400, expect.stringMatching(/^invalid continue token: /)),
  });
});

test("clients for apps/v1, batch/v1, rbac and networking create, patch, get and list their kinds; all_entities lists a group's", async () => {
  expect(await runCheck("group_apis")).toEqual({
    deployment: [2, ["nginx:2"], ["group"]],
    job: ["Job", 1, 6, ["once"]],
    cronJob: { schedule: "*/5 * * * *", concurrencyPolicy: "Allow", suspend: false },
    role: [[["get", "list"]]],
    roleBinding: "reader",
    networkPolicies: ["deny"],
    ingress: ["web.example"],
    appsEntities: ["deployment", "replica_set"],
  });
});

test("a CRD created through the apiextensions client gets a client of its own group: CRUD, apply, watch, and 415 for strategic merge patch", async () => {
  expect(await runCheck("custom_resources")).toEqual({
    valid: true,
    created: ["CronTab", "stable.example.com/v1", { cronSpec: "0 0 * * *", replicas: 1 }],
    list: ["CronTab", ["applied", "nightly"]],
    watched: ["MODIFIED", 2],
    jsonPatch: 3,
    updated: "0 1 * * *",
    strategic: httpError(
      415,
      "the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml",
    ),
    deleted: { kind: "Status", status: "Success" },
    entities: { cron_tab: 1 },
  });
});

test("watch_* from a resourceVersion as a WatchStream ended by finish, by name, as :raw and :parsed, and the old resourceVersion argument", async () => {
  expect(await runCheck("watch")).toEqual({
    streamed: [["ADDED", "watched", "value"], ["MODIFIED", "watched", "changed"], ["DELETED", "watched", "changed"]],
    named: ["ADDED", "MODIFIED", "DELETED"],
    raw: { type: "ADDED", kind: "ConfigMap" },
    legacyVersionArgument: "ADDED",
    fieldSelected: ["ADDED", "rb-watch"],
    // The http gem's answer: WatchStream raises with the reason phrase, not the Status.
    badVersion: httpError(400, "Bad Request"),
  });
});

test("a watch from a compacted resourceVersion gets an ERROR notice with kube's 410 Expired; a relist and a new watch carry on", async () => {
  expect(await runCheck("watch_gone", shortHistory)).toEqual({
    gone: { kind: "Status", code: 410, reason: "Expired" },
    resumed: [["ADDED", "after-relist"]],
  });
});

test("get_pod_log with its options and watch_pod_log read a simulated kubelet's log; kube's 400 and 404 for what is not there", async () => {
  expect(await runCheck("pod_log")).toEqual({
    log: "one\ntwo\nthree\n",
    tail: "three\n",
    limited: "one\nt",
    timestamped: ["one\n", "two\n", "three\n"],
    followed: ["one", "two", "three"],
    previous: httpError(400, 'previous terminated container "app" in pod "talker" not found'),
    unknownContainer: httpError(400, "container nope is not valid for pod talker"),
    missingPod: httpError(404, 'pods "ghost" not found'),
  });
});

test("proxy_url names the services, pods and nodes proxy paths; a service without endpoints answers kube's 503", async () => {
  expect(await runCheck("proxy_url")).toEqual({
    urls: [
      "/api/v1/namespaces/rb-proxy-url/services/web:80/proxy",
      "/api/v1/namespaces/rb-proxy-url/pods/talker:8080/proxy",
      "/api/v1/nodes/sim-0:10250/proxy",
    ],
    endpointSubsets: null,
    noEndpoints: httpError(503, 'no endpoints available for service "web"'),
  });
});

test("get_entities, get_entity and all_entities (which skips what cannot be listed, as bindings)", async () => {
  expect(await runCheck("entities")).toEqual({
    list: ["ConfigMap", ["entity", "kube-root-ca.crt"]],
    entity: { key: "value" },
    all: { config_map: ["entity", "kube-root-ca.crt"], service_account: ["default"] },
  });
});
