import { expect, test } from "bun:test";
import { strictDecodingMessage } from "./_field-strict.ts";

const body = {
  metadata: { name: "a", unknownMeta: "x" },
  spec: {
    unknown1: 1,
    unknownDupe: { inner: 1 },
    paused: false,
    template: { spec: { containers: [{ bogus: 1, imagePullPolicy: "Never" }] } },
  },
};

test("strictDecodingMessage() lists unknown and duplicate fields together in document order", () => {
  const unknown = ["metadata.unknownMeta", "spec.unknown1", "spec.unknownDupe", "spec.template.spec.containers[0].bogus"];
  const duplicates = ["spec.template.spec.containers[0].imagePullPolicy", "metadata.name", "spec.paused"];
  expect(strictDecodingMessage(body, unknown, duplicates)).toBe(
    'strict decoding error: duplicate field "metadata.name", unknown field "metadata.unknownMeta", unknown field "spec.unknown1", ' +
      'unknown field "spec.unknownDupe", duplicate field "spec.paused", unknown field "spec.template.spec.containers[0].bogus", ' +
      'duplicate field "spec.template.spec.containers[0].imagePullPolicy"',
  );
});

test("strictDecodingMessage() reports a field both unknown and duplicated, or inside an unknown field, only as unknown", () => {
  expect(strictDecodingMessage(body, ["spec.unknownDupe"], ["spec.unknownDupe", "spec.unknownDupe.inner"]))
    .toBe('strict decoding error: unknown field "spec.unknownDupe"');
});

test("strictDecodingMessage() takes the first 100 of 100,000 unknown fields and leaves out duplicates inside them", () => {
  const spec: Record<string, unknown> = {};
  for (let i = 0; i < 100_000; i++) spec[`u${i}`] = { q: i };
  const unknown = Object.keys(spec).map((key) => `spec.${key}`);
  const message = strictDecodingMessage({ kind: "X", spec }, unknown, ["spec.u5.q", "kind"]);
  const problems = message.replace("strict decoding error: ", "").split(", ");
  expect(problems).toHaveLength(100);
  expect(problems.slice(0, 2)).toEqual(['duplicate field "kind"', 'unknown field "spec.u0"']);
  expect(problems).not.toContain('duplicate field "spec.u5.q"');
});

test("strictDecodingMessage() places a duplicate 9000 levels deep without spelling out every path on the way", () => {
  let body: Record<string, unknown> = { k: 1 };
  for (let i = 0; i < 9000; i++) body = { a: body };
  const deep = `${"a.".repeat(9000)}k`;
  expect(strictDecodingMessage({ z: 1, ...body }, ["z"], [deep])).toBe(
    `strict decoding error: unknown field "z", duplicate field "${deep}"`,
  );
});
