/**
 * The offline test kit: runs a plugin against fixtures (a request and what the plugin should answer) with no
 * server, as `kyverno test` and `gator verify` do for their policies. `kubun admission test` reads fixtures
 * from YAML; a unit test may import runFixtures and pass them directly.
 */
import type { AdmissionPluginFactory, AdmissionRequest, KubeObject, Operation, UserInfo } from "./contract.ts";
import { BUILT_IN_PLURALS } from "./kinds.gen.ts";
import { jsonPatch, type JsonPatchOperation } from "./json-patch.ts";
import { classifyThrown } from "./verdict.ts";

export interface FixtureExpectation {
  allowed: boolean;
  /** Text the refusal's message must contain. */
  message?: string;
  /** The refusal's HTTP code (403 unless the plugin gave another). */
  code?: number;
  /** Exactly the warnings the client gets. */
  warnings?: string[];
  /** Exactly the changes `admit` makes to the object, as an RFC 6902 JSON patch. */
  patch?: JsonPatchOperation[];
}

export interface Fixture {
  name: string;
  /** Default: UPDATE with object and oldObject, DELETE with oldObject only, else CREATE. */
  operation?: Operation;
  object?: KubeObject;
  oldObject?: KubeObject;
  /** `pods`, `deployments.apps`, `widgets.example.com`, with `/subresource`; built-in kinds need none. */
  resource?: string;
  /** Default: the object's namespace. */
  namespace?: string;
  /** Labels of the namespace, answered to `client.get` of it. */
  namespaceLabels?: Record<string, string>;
  /** Default: `fixture-user` in system:authenticated. */
  user?: UserInfo;
  dryRun?: boolean;
  /** The plugin's AdmissionConfiguration section. */
  pluginConfig?: unknown;
  expect: FixtureExpectation;
}

export interface FixtureResult {
  fixture: string;
  passed: boolean;
  /** Why it failed, or what the plugin answered. */
  reason: string;
}

interface Answer {
  allowed: boolean;
  message: string;
  code: number;
  warnings: string[];
  patch: JsonPatchOperation[];
}

/** Runs every fixture against a fresh instance of the plugin; never throws for a plugin's failure. */
export async function runFixtures(factory: AdmissionPluginFactory, fixtures: readonly Fixture[]): Promise<FixtureResult[]> {
  const results: FixtureResult[] = [];
  for (const fixture of fixtures) {
    try {
      results.push(judge(fixture, await answer(factory, fixture)));
    } catch (error) {
      results.push({ fixture: fixture.name, passed: false, reason: (error as Error).message });
    }
  }
  return results;
}

async function answer(factory: AdmissionPluginFactory, fixture: Fixture): Promise<Answer> {
  const namespace = fixture.namespace ?? fixture.object?.metadata.namespace ?? fixture.oldObject?.metadata.namespace ?? "";
  const namespaceObject = { apiVersion: "v1", kind: "Namespace", metadata: { name: namespace, labels: fixture.namespaceLabels ?? {} } };
  const isNamespace = (ref: { group: string; resource: string }) => ref.group === "" && ref.resource === "namespaces";
  const plugin = await factory({
    config: {},
    client: {
      get: (ref) => Promise.resolve(isNamespace(ref) && namespace && ref.name === namespace ? asJson(namespaceObject) : null),
      list: (ref) => Promise.resolve(isNamespace(ref) && namespace ? [asJson(namespaceObject)] : []),
    },
    log: { info: () => {}, warn: () => {}, error: () => {} },
    pluginConfig: fixture.pluginConfig,
  });
  const request = fixtureRequest(fixture, namespace);
  const before = asJson(request.object);
  const warnings: string[] = [];
  request.addWarning = (text) => warnings.push(text);
  const result = (allowed: boolean, message: string, code: number): Answer => ({
    allowed,
    message,
    code,
    warnings,
    patch: before && request.object ? jsonPatch(before, request.object) : [],
  });
  if (plugin.handles && !plugin.handles(request)) return result(true, "not handled", 0);
  try {
    await plugin.admit?.(request);
    await plugin.validate?.(request);
  } catch (thrown) {
    const refusal = classifyThrown(thrown);
    if (refusal.kind === "failed") throw new Error(`plugin failed: ${refusal.message}`);
    return result(false, refusal.message, refusal.kind === "coded" ? refusal.code : 403);
  }
  return result(true, "allowed", 0);
}

function fixtureRequest(fixture: Fixture, namespace: string): AdmissionRequest {
  const object = fixture.object ?? null;
  const oldObject = fixture.oldObject ?? null;
  const sample = object ?? oldObject;
  if (!sample) throw new Error("fixture has neither object nor oldObject");
  const [groupVersion, subresource = ""] = (fixture.resource ?? "").split("/");
  const apiVersion = sample.apiVersion ?? "v1";
  const [group, version] = apiVersion.includes("/") ? apiVersion.split("/") : ["", apiVersion];
  const resource = groupVersion ? groupVersion.split(".")[0] : BUILT_IN_PLURALS[`${apiVersion}/${sample.kind}`];
  if (!resource) throw new Error(`fixture needs "resource": ${apiVersion} ${sample.kind} is not a built-in kind`);
  const operation = fixture.operation ?? (object && oldObject ? "UPDATE" : oldObject ? "DELETE" : "CREATE");
  return {
    operation,
    object: asJson(object),
    oldObject: asJson(oldObject),
    kind: { group, version, kind: sample.kind ?? "" },
    resource: { group, version, resource },
    subresource,
    name: sample.metadata.name ?? "",
    namespace,
    user: fixture.user ?? { username: "fixture-user", groups: ["system:authenticated"] },
    dryRun: fixture.dryRun ?? false,
    options: {
      apiVersion: "meta.k8s.io/v1",
      kind: `${operation === "DELETE" ? "Delete" : operation === "UPDATE" ? "Update" : "Create"}Options`,
    },
    reinvocation: { isReinvoke: false, values: new Map(), requestReinvocation: () => {} },
    addWarning: () => {},
    addAuditAnnotation: () => {},
  };
}

/** A copy as the server would decode it from JSON (undefined fields gone). */
function asJson<T>(value: T): T {
  return JSON.parse(JSON.stringify(value));
}

function judge(fixture: Fixture, got: Answer): FixtureResult {
  const fail = (reason: string): FixtureResult => ({ fixture: fixture.name, passed: false, reason });
  const want = fixture.expect;
  const verdict = got.allowed ? got.message : `denied (${got.code}): ${got.message}`;
  if (got.allowed !== want.allowed) return fail(`want ${want.allowed ? "allowed" : "denied"}, got ${verdict}`);
  if (want.message !== undefined && !got.message.includes(want.message)) {
    return fail(`want a message containing "${want.message}", got ${verdict}`);
  }
  if (want.code !== undefined && got.code !== want.code) return fail(`want code ${want.code}, got ${verdict}`);
  if (want.warnings && JSON.stringify(got.warnings) !== JSON.stringify(want.warnings)) {
    return fail(`want warnings ${JSON.stringify(want.warnings)}, got ${JSON.stringify(got.warnings)}`);
  }
  if (want.patch && JSON.stringify(got.patch) !== JSON.stringify(want.patch)) {
    return fail(`want patch ${JSON.stringify(want.patch)}, got ${JSON.stringify(got.patch)}`);
  }
  return { fixture: fixture.name, passed: true, reason: verdict };
}
