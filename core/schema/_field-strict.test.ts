import { expect, test } from "bun:test";
import { strictDecodingMessage } from "./_field-strict.ts";

const body = {
  metadata: { name: "a", unknownMeta: "x" },
  spec: { unknown1: 1, unknownDupe: { inner: 1 }, paused: false, template: { spec: { containers: [{ bogus: 1, imagePullPolicy: "Never" }] } } },
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
