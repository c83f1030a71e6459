/**
 * Drives every typed method @kubernetes/client-node has for one object of each kind (tests/_client-node-kinds.ts):
 * create (a dry run first), read, readStatus, readScale, list, list for all namespaces, a controller's status write,
 * patch with each PatchStrategy (main, status, scale), replace (main, scale), delete (a dry run first) and
 * deleteCollection, each found on the
 * kind's `*Api` class by name; tests/_client-node-recorder.ts checks each answer.
 */
import * as clientNode from "@kubernetes/client-node";
import { ApiException, type ConfigurationOptions, type KubeConfig, PatchStrategy } from "@kubernetes/client-node";
import type { Json } from "./_api.ts";
import { SWEEP_LABELS, type SweepKind, sweepKinds } from "./_client-node-kinds.ts";
import { AnswerChecker } from "./_client-node-recorder.ts";

export interface SweepResult {
  calls: number;
  failures: [string, string][];
}

type TypedMethod = (param: Record<string, unknown>, options?: ConfigurationOptions) => Promise<Json>;
type TypedApi = Record<string, TypedMethod | undefined>;
/** A typed method found on an API class, with the name failures are reported under. */
type Found = { label: string; run: TypedMethod };

function objectName(namespace: string, kind: SweepKind): string {
  if (kind.kind === "Namespace") return `${namespace}-other`;
  if (kind.kind === "CustomResourceDefinition") return `widgets.${(kind.fields.spec as { group: string }).group}`;
  if (kind.kind === "APIService") {
    const spec = kind.fields.spec as { group: string; version: string };
    return `${spec.version}.${spec.group}`;
  }
  return `sweep-${kind.api.slice(0, -3).toLowerCase()}-${kind.kind.toLowerCase()}`;
}

export async function runTypedSweep(kc: KubeConfig, namespace: string, csr: string): Promise<SweepResult> {
  const checker = new AnswerChecker();
  const recorded = checker.options;
  const withPatchType = (strategy: string) => checker.withPatchType(strategy);
  const call = checker.call.bind(checker);

  /** A read-modify-write that meets a controller's write in between tries again, as clients do on 409. */
  async function retried(run: () => Promise<Json>): Promise<Json> {
    for (let attempt = 1;; attempt++) {
      try {
        return await run();
      } catch (error) {
        if (!(error instanceof ApiException) || error.code !== 409 || attempt === 5) throw error;
      }
    }
  }

  const everything = sweepKinds(namespace, csr);
  for (const kind of everything) {
    // deno-lint-ignore no-explicit-any
    const api = kc.makeApiClient((clientNode as any)[kind.api]) as unknown as TypedApi;
    const name = objectName(namespace, kind);
    const scope = kind.namespaced ? "Namespaced" : "";
    const where = kind.namespaced ? { namespace } : {};
    const method = (verb: string, suffix = ""): Found | undefined => {
      const methodName = `${verb}${scope}${kind.kind}${suffix}`;
      const found = api[methodName];
      return found ? { label: `${kind.api}.${methodName}`, run: found.bind(api) } : undefined;
    };
    const read = method("read")!.run;
    const body = { apiVersion: kind.apiVersion, kind: kind.kind, metadata: { name, labels: SWEEP_LABELS }, ...kind.fields };
    const create = method("create")!;
    // A dry run answers what the create would store, as the create does, and stores nothing.
    await call(`${create.label} (dryRun)`, () => create.run({ ...where, body, dryRun: "All" }, recorded), kind.kind, "sent");
    await call(create.label, () => create.run({ ...where, body }, recorded), kind.kind, "sent");

    for (const suffix of ["", "Status", "Scale"]) {
      const found = method("read", suffix);
      if (found) await call(found.label, () => found.run({ name, ...where }, recorded), kind.kind);
    }
    // Controllers record core/v1 Events without an eventTime, which EventsV1Event requires: those lists are the sweep's own.
    const narrowed = kind.api === "EventsV1Api" ? { labelSelector: "app=sweep" } : {};
    const list = method("list")!;
    await call(list.label, () => list.run({ ...where, ...narrowed }, recorded), kind.kind);
    const allNamespaces = api[`list${kind.kind}ForAllNamespaces`];
    if (kind.namespaced && allNamespaces) {
      await call(`${kind.api}.list${kind.kind}ForAllNamespaces`, () => allNamespaces.call(api, narrowed, recorded), kind.kind);
    }

    /** A read, a change and a write back, retried when a controller wrote in between. */
    const rewrite = async (write: Found | undefined, readBack: TypedMethod, change: (current: Json) => Json, expected?: unknown) => {
      if (!write) return;
      const run = () => retried(async () => write.run({ name, ...where, body: change(await readBack({ name, ...where })) }, recorded));
      await call(write.label, run, kind.kind, expected);
    };
    await rewrite(
      method("replace", "Status"),
      read,
      (current) => ({ ...current, status: kind.status ?? current.status }),
      kind.status && {
        status: kind.status,
      },
    );
    /** One patch of `strategy`'s type; the label names which one. */
    const patchWith = async (found: Found | undefined, strategy: string, patchBody: unknown, expected: unknown, extra = {}) => {
      if (!found) return;
      const run = () => found.run({ name, ...where, body: patchBody, ...extra }, withPatchType(strategy));
      await call(`${found.label} (${strategy})`, run, kind.kind, expected);
    };
    const labelled = (value: string | undefined, label: string) => ({ metadata: { labels: { [label]: value } } });
    await patchWith(method("patch"), PatchStrategy.MergePatch, labelled("yes", "merge"), labelled("yes", "merge"));
    await patchWith(method("patch"), PatchStrategy.StrategicMergePatch, labelled("yes", "strategic"), labelled("yes", "strategic"));
    const add = [{ op: "add", path: "/metadata/labels/json", value: "yes" }];
    await patchWith(method("patch"), PatchStrategy.JsonPatch, add, labelled("yes", "json"));
    const applied = { apiVersion: kind.apiVersion, kind: kind.kind, metadata: { name, labels: { applied: "yes" } } };
    await patchWith(
      method("patch"),
      PatchStrategy.ServerSideApply,
      applied,
      { metadata: { labels: { ...SWEEP_LABELS, applied: "yes" } } },
      {
        fieldManager: "js-sweep",
        force: true,
      },
    );
    const statusLabel = kind.statusKeepsLabels ? undefined : "yes";
    await patchWith(method("patch", "Status"), PatchStrategy.MergePatch, labelled("yes", "status"), labelled(statusLabel, "status"));
    const scaled = { spec: { replicas: 1 } };
    await patchWith(method("patch", "Scale"), PatchStrategy.MergePatch, scaled, scaled);

    const relabelled = (current: Json) => ({
      ...current,
      metadata: { ...current.metadata, labels: { ...current.metadata.labels, replaced: "yes" } },
    });
    await rewrite(method("replace"), read, relabelled, { metadata: { labels: { replaced: "yes" } } });
    const readScale = method("read", "Scale");
    if (readScale) {
      await rewrite(method("replace", "Scale"), readScale.run, (current) => ({ ...current, spec: { ...current.spec, replicas: 2 } }), {
        spec: { replicas: 2 },
      });
    }
  }

  // Every object's own delete first: core and events.k8s.io Events are one collection, which either's deleteCollection empties.
  const apiOf = (kind: SweepKind) =>
    // deno-lint-ignore no-explicit-any
    kc.makeApiClient((clientNode as any)[kind.api]) as unknown as TypedApi;
  for (const kind of everything) {
    const api = apiOf(kind);
    const scoped = `${kind.namespaced ? "Namespaced" : ""}${kind.kind}`;
    const target = { name: objectName(namespace, kind), ...(kind.namespaced ? { namespace } : {}) };
    // A dry-run delete answers as the delete would and leaves the object readable.
    const remove = api[`delete${scoped}`]!.bind(api);
    await call(`${kind.api}.delete${scoped} (dryRun)`, () => remove({ ...target, dryRun: "All" }, recorded), kind.kind);
    await call(`${kind.api}.read${scoped} (after the dry run)`, () => api[`read${scoped}`]!.call(api, target, recorded), kind.kind);
    await call(`${kind.api}.delete${scoped}`, () => remove(target, recorded), kind.kind);
  }
  for (const kind of everything) {
    const api = apiOf(kind);
    const methodName = `deleteCollection${kind.namespaced ? "Namespaced" : ""}${kind.kind}`;
    const collection = api[methodName];
    const where = kind.namespaced ? { namespace } : {};
    if (collection) {
      await call(`${kind.api}.${methodName}`, () => collection.call(api, { ...where, labelSelector: "app=sweep" }, recorded), kind.kind);
    }
  }
  return { calls: checker.calls, failures: checker.failures };
}
