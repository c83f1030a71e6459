import { expect, test } from "bun:test";
import type { KubeObject } from "../../api/types.ts";
import { convertedObjectsOf, identityError, reviewVersionFor, withRestoredMeta } from "./review.ts";

const ORIGINAL: KubeObject = {
  apiVersion: "example.com/v1",
  kind: "Widget",
  metadata: { name: "w", namespace: "ns", uid: "u-1", generation: 3, labels: { a: "1" }, annotations: { note: "x" } },
};

test("createConversionReviewObjects picks the first review version this server speaks", () => {
  expect(reviewVersionFor(["v2", "v1beta1", "v1"])).toBe("v1beta1");
  expect(reviewVersionFor(["v2"])).toBeUndefined();
});

test("getConvertedObjectsFromResponse checks a v1 reply's kind and uid, but not a v1beta1 reply's", () => {
  const response = { uid: "other", result: { status: "Success" }, convertedObjects: [1] };
  expect(() => convertedObjectsOf("v1", "uid-1", { apiVersion: "apiextensions.k8s.io/v1beta1", kind: "ConversionReview", response }))
    .toThrow(
      "expected webhook response of apiextensions.k8s.io/v1, Kind=ConversionReview, got apiextensions.k8s.io/v1beta1, Kind=ConversionReview",
    );
  expect(() => convertedObjectsOf("v1", "uid-1", { apiVersion: "apiextensions.k8s.io/v1", kind: "ConversionReview", response }))
    .toThrow('expected response.uid="uid-1", got "other"');
  expect(convertedObjectsOf("v1beta1", "uid-1", { response })).toEqual([1]);
  expect(() => convertedObjectsOf("v1beta1", "uid-1", {})).toThrow("no response provided");
  expect(() => convertedObjectsOf("v1beta1", "uid-1", { response: { result: { status: "Failure" } } })).toThrow(
    "response.result.status was 'Failure', not 'Success'",
  );
});

test("validateConvertedObject: kind, name, namespace and UID must stay", () => {
  expect(identityError(ORIGINAL, { ...ORIGINAL, metadata: { ...ORIGINAL.metadata, namespace: "other" } })).toBe(
    "must have the same namespace: ns != other",
  );
  expect(identityError(ORIGINAL, { ...ORIGINAL, apiVersion: "example.com/v2" })).toBeUndefined();
});

test("restoreObjectMeta keeps the original metadata but the answered labels and annotations, and validates changed ones", () => {
  const restored = withRestoredMeta(ORIGINAL, {
    apiVersion: "example.com/v2",
    kind: "Widget",
    metadata: { name: "w", generation: 9, labels: { b: "2" } },
  });
  expect(restored.metadata).toEqual({ name: "w", namespace: "ns", uid: "u-1", generation: 3, labels: { b: "2" } });
  expect(() => withRestoredMeta(ORIGINAL, { kind: "Widget" })).toThrow("missing metadata in converted object");
  expect(() => withRestoredMeta(ORIGINAL, { metadata: { labels: { a: 1 } } })).toThrow(
    "metadata.labels[a] must be a string, but is int64 in converted object",
  );
  expect(() => withRestoredMeta(ORIGINAL, { metadata: { labels: { "bad key!": "v" } } })).toThrow(
    /^metadata\.labels: Invalid value: "bad key!"/,
  );
});
