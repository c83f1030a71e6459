import { expect, test } from "bun:test";
import { statusErrorOfAsync } from "../api/testing.ts";
import type { AdmittedWrite } from "../registry/admission-hook.ts";
import type { ResourceType } from "../api/resource-type.ts";
import { AdmissionChain } from "./chain.ts";
import type { AdmissionPlugin } from "./types.ts";

const PODS: ResourceType = {
  group: "",
  version: "v1",
  resource: "pods",
  singularName: "pod",
  kind: "Pod",
  listKind: "PodList",
  namespaced: true,
  shortNames: [],
  categories: [],
  verbs: [],
  subresources: [],
};

function write(overrides: Partial<AdmittedWrite> = {}): AdmittedWrite {
  return {
    operation: "CREATE",
    type: PODS,
    subresource: "",
    namespace: "ns",
    name: "p",
    object: { metadata: { name: "p" } },
    oldObject: null,
    user: { username: "alice", groups: [] },
    dryRun: false,
    options: { kind: "CreateOptions", apiVersion: "meta.k8s.io/v1" },
    warnings: [],
    ...overrides,
  };
}

test("admit() runs plugins in order and their changes land on the written object", async () => {
  const order: string[] = [];
  const plugin = (name: string): AdmissionPlugin => ({
    name,
    admit: (a) => {
      order.push(name);
      a.object!.metadata.labels = { ...a.object!.metadata.labels, [name]: "yes" };
    },
  });
  const w = write();
  expect(await new AdmissionChain([plugin("a"), plugin("b")]).admit(w)).toBe(true);
  expect(order).toEqual(["a", "b"]);
  expect(w.object!.metadata.labels).toEqual({ a: "yes", b: "yes" });
});

test("admit() copies a replaced object back into the one the store holds", async () => {
  const w = write();
  const original = w.object;
  await new AdmissionChain([{ name: "r", admit: (a) => void (a.object = { metadata: { name: "p", labels: { new: "1" } } }) }]).admit(w);
  expect(original!.metadata.labels).toEqual({ new: "1" });
});

test("admit() runs the mutating phase again once when a plugin asks for reinvocation", async () => {
  const passes: boolean[] = [];
  const plugin: AdmissionPlugin = {
    name: "w",
    admit: (a) => {
      passes.push(a.reinvocation.isReinvoke);
      a.reinvocation.requestReinvocation();
    },
  };
  await new AdmissionChain([plugin]).admit(write());
  expect(passes).toEqual([false, true]);
});

test("plugins that do not handle the request are skipped", async () => {
  const chain = new AdmissionChain([{
    name: "n",
    handles: () => false,
    admit: () => {
      throw new Error("called");
    },
  }]);
  expect(await chain.admit(write())).toBe(false);
});

test("validate() turns a plain Error into kube's 403 admission denial", async () => {
  const chain = new AdmissionChain([{
    name: "v",
    validate: () => {
      throw new Error("no team label");
    },
  }]);
  const error = await statusErrorOfAsync(chain.validate(write()));
  expect(error.code).toBe(403);
  expect(error.message).toBe('pods "p" is forbidden: no team label');
});

test("validate() keeps the code of a thrown {code, message}", async () => {
  const chain = new AdmissionChain([{
    name: "v",
    validate: () => {
      throw { code: 422, message: "bad" };
    },
  }]);
  const error = await statusErrorOfAsync(chain.validate(write()));
  expect([error.code, error.reason, error.message]).toEqual([422, "Invalid", "bad"]);
});

test("a plugin's programming error becomes a 500, not a crash", async () => {
  const chain = new AdmissionChain([{
    name: "buggy",
    validate: () => {
      throw new TypeError("x is undefined");
    },
  }]);
  const error = await statusErrorOfAsync(chain.validate(write()));
  expect(error.code).toBe(500);
  expect(error.message).toContain('admission plugin "buggy" failed: x is undefined');
});

test("a plugin call that outlives its timeout fails the request with 504", async () => {
  const chain = new AdmissionChain([{ name: "slow", timeoutMs: 20, validate: () => new Promise((resolve) => setTimeout(resolve, 500)) }]);
  const error = await statusErrorOfAsync(chain.validate(write()));
  expect(error.code).toBe(504);
});

test("a dry run fails on a plugin with side effects", async () => {
  const chain = new AdmissionChain([{ name: "fx", sideEffects: true, validate: () => {} }]);
  const error = await statusErrorOfAsync(chain.validate(write({ dryRun: true })));
  expect([error.code, error.message]).toEqual([400, 'admission plugin "fx" has side effects and does not support dry run']);
});

test("addWarning() reaches the response's warnings", async () => {
  const w = write();
  await new AdmissionChain([{ name: "w", admit: (a) => a.addWarning("careful") }]).admit(w);
  expect(w.warnings).toEqual(["careful"]);
});

test("validationActions Warn turn a refusal into a Warning and Audit into one validation_failure annotation for all plugins", async () => {
  const refusing = (name: string): AdmissionPlugin => ({ name, validate: () => Promise.reject(new Error(`${name} says no`)) });
  const [warned, audited, alsoAudited] = [refusing("w"), refusing("a"), refusing("b")];
  const violations: string[] = [];
  const chain = new AdmissionChain([warned, audited, alsoAudited], {
    actions: new Map([[warned, ["Warn"]], [audited, ["Audit"]], [alsoAudited, ["Warn", "Audit"]]]),
    onViolation: (violation) => violations.push(violation.pluginName),
  });
  const w = write({ auditAnnotations: new Map() });
  await chain.validate(w);
  expect(w.warnings).toEqual([
    `Validation failed for admission plugin 'w': pods "p" is forbidden: w says no`,
    `Validation failed for admission plugin 'b': pods "p" is forbidden: b says no`,
  ]);
  expect(JSON.parse(w.auditAnnotations!.get("validation.policy.admission.k8s.io/validation_failure")!)).toEqual([
    { message: 'pods "p" is forbidden: a says no', policy: "a", validationActions: ["Audit"] },
    { message: 'pods "p" is forbidden: b says no', policy: "b", validationActions: ["Warn", "Audit"] },
  ]);
  expect(violations).toEqual(["w", "a", "b"]);
});

test("a plugin failure (5xx) fails the request even under Warn", async () => {
  const broken: AdmissionPlugin = { name: "broken", validate: () => Promise.reject(new TypeError("bug")) };
  const chain = new AdmissionChain([broken], { actions: new Map([[broken, ["Warn"]]]) });
  expect((await statusErrorOfAsync(chain.validate(write()))).code).toBe(500);
});

test("plugins answering at once and later run in order, each refusal the same whether thrown at once or rejected later", async () => {
  const order: string[] = [];
  const plugin = (name: string, later: boolean): AdmissionPlugin => ({
    name,
    admit: later ? async () => void order.push(name) : () => void order.push(name),
    validate: later ? async () => void order.push(`${name}!`) : () => void order.push(`${name}!`),
  });
  const w = write();
  const chain = new AdmissionChain([plugin("a", false), plugin("b", true), plugin("c", false)]);
  expect(await chain.admit(w)).toBe(true);
  await chain.validate(w);
  expect(order).toEqual(["a", "b", "c", "a!", "b!", "c!"]);
  // A thenable that is no Promise is awaited too.
  const thenable = { then: (resolve: () => void) => setTimeout(() => (order.push("t"), resolve()), 1) } as unknown as Promise<void>;
  await new AdmissionChain([{ name: "t", admit: () => thenable }, plugin("d", false)]).admit(write());
  expect(order.slice(6)).toEqual(["t", "d"]);
  const refusing = (later: boolean): AdmissionPlugin => ({
    name: "no",
    validate: later ? async () => Promise.reject(new Error("nope")) : () => {
      throw new Error("nope");
    },
  });
  const [atOnce, rejected] = await Promise.all(
    [false, true].map((later) => statusErrorOfAsync(new AdmissionChain([refusing(later)]).validate(write()))),
  );
  expect(atOnce).toEqual(rejected);
  expect(atOnce.code).toBe(403);
});

test("phases whose plugins all answer at once are answered without a promise; a refusal at once is still a rejected promise", async () => {
  const w = write();
  const chain = new AdmissionChain([{ name: "a", admit: () => {}, validate: () => {} }]);
  expect(chain.admit(w)).toBe(true);
  expect(chain.validate(w)).toBeUndefined();
  const refusing = new AdmissionChain([{
    name: "r",
    validate: () => {
      throw new Error("no");
    },
  }]);
  const refused = refusing.validate(write());
  expect(refused).toBeInstanceOf(Promise);
  expect((await statusErrorOfAsync(refused as Promise<void>)).code).toBe(403);
});

test("each plugin is asked whether it handles the request just before its call, after the plugins before it (chainAdmissionHandler.Admit)", async () => {
  const w = write();
  const chain = new AdmissionChain([
    { name: "labeler", admit: (a) => void (a.object!.metadata.labels = { team: "a" }) },
    {
      name: "labeled-only",
      handles: (a) => a.object?.metadata.labels?.team === "a",
      admit: (a) => void (a.object!.metadata.annotations = { seen: "yes" }),
    },
  ]);
  await chain.admit(w);
  expect(w.object!.metadata.annotations).toEqual({ seen: "yes" });
});
