import { expect, test } from "bun:test";
import { type Fixture, runFixtures } from "../../core/admission/sdk/mod.ts";
import addDefaultAnnotation, { ANNOTATION } from "./add-default-annotation.ts";
import requireTeamLabel from "./require-team-label.ts";

const pod = (labels: Record<string, string> = {}, annotations?: Record<string, string>) => ({
  apiVersion: "v1",
  kind: "Pod",
  metadata: { name: "p", namespace: "ns", labels, annotations },
  spec: { containers: [{ name: "c", image: "nginx" }] },
});

function expectAllPass(results: { fixture: string; passed: boolean; reason: string }[]): void {
  expect(results.filter((result) => !result.passed)).toEqual([]);
}

test("require-team-label refuses a pod without the team label, accepts the label its configuration names, ignores configmaps", async () => {
  const fixtures: Fixture[] = [
    { name: "no label", object: pod(), expect: { allowed: false, code: 403, message: 'missing required label "team"' } },
    { name: "configured label", object: pod({ owner: "payments" }), pluginConfig: { label: "owner" }, expect: { allowed: true } },
    {
      name: "deployment without label",
      object: { apiVersion: "apps/v1", kind: "Deployment", metadata: { name: "d", namespace: "ns" } },
      expect: { allowed: false },
    },
    {
      name: "configmap",
      object: { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "c", namespace: "ns" } },
      expect: { allowed: true },
    },
  ];
  expectAllPass(await runFixtures(requireTeamLabel, fixtures));
});

test("add-default-annotation records the creating user and warns, and keeps an annotation the object already has", async () => {
  const fixtures: Fixture[] = [
    {
      name: "annotates",
      object: pod(),
      user: { username: "alice", groups: [] },
      expect: {
        allowed: true,
        warnings: [`add-default-annotation: set ${ANNOTATION}`],
        patch: [{ op: "add", path: "/metadata/annotations", value: { [ANNOTATION]: "alice" } }],
      },
    },
    { name: "keeps", object: pod({}, { [ANNOTATION]: "bob" }), expect: { allowed: true, warnings: [], patch: [] } },
  ];
  expectAllPass(await runFixtures(addDefaultAnnotation, fixtures));
});
