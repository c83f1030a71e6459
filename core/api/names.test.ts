import { expect, test } from "bun:test";
import {
  isDNS1035Label,
  isDNS1123Label,
  isDNS1123Subdomain,
  isQualifiedName,
  isValidLabelValue,
  isValidPathSegmentName,
  nameIsDNSLabel,
  nameIsDNSSubdomain,
  nameIsPathSegment,
  validateAnnotations,
  validateKubeFinalizerNames,
  validateObjectMeta,
} from "./names.ts";

const SUBDOMAIN_ERROR =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const LABEL_ERROR =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const NAME_PART_ERROR =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";

test("isDNS1123Subdomain() follows kube's good and bad examples", () => {
  for (
    const good of [
      "a",
      "ab",
      "abc",
      "a1",
      "a-1",
      "a--1--2--b",
      "0",
      "01",
      "012",
      "1a",
      "1-a",
      "1--a--b--2",
      "a.a",
      "ab.a",
      "abc.a",
      "a1.a",
      "a-1.a",
      "a--1--2--b.a",
      "a.1",
      "0.a",
      "1.0",
      "a".repeat(253),
    ]
  ) {
    expect([good, isDNS1123Subdomain(good)]).toEqual([good, []]);
  }
  for (
    const bad of [
      "",
      "A",
      "ABC",
      "aBc",
      "A1",
      "A-1",
      "1-A",
      "-",
      "a-",
      "-a",
      "1-",
      "-1",
      "_",
      "a_",
      "_a",
      "a_b",
      "1_",
      "_1",
      "1_2",
      ".",
      "a.",
      ".a",
      "a..b",
      "1.",
      ".1",
      "1..2",
      " ",
      "a ",
      " a",
      "a b",
      "1 ",
      " 1",
      "1 2",
      "A.a",
      "aB.a",
      "ab.A",
      "A1.a",
      "a1.A",
      "A.1",
      "aB.1",
      "A1.1",
      "1A.1",
      "0.A",
      "01.A",
      "012.A",
      "1A.a",
      "1a.A",
      "A.B.C.D.E",
      "AA.BB.CC.DD.EE",
      "a.B.c.d.e",
      "aa.bB.cc.dd.ee",
      "a@b",
      "a,b",
      "a_b",
      "a;b",
      "a:b",
      "a%b",
      "a?b",
      "a$b",
    ]
  ) {
    expect([bad, isDNS1123Subdomain(bad)]).toEqual([bad, [SUBDOMAIN_ERROR]]);
  }
  expect(isDNS1123Subdomain("a".repeat(254))).toEqual(["must be no more than 253 characters"]);
});

test("isDNS1123Label() rejects dots, capitals and more than 63 characters", () => {
  expect(isDNS1123Label("my-name")).toEqual([]);
  expect(isDNS1123Label("a.b")).toEqual([LABEL_ERROR]);
  expect(isDNS1123Label("a".repeat(64))).toEqual(["must be no more than 63 characters"]);
  expect(isDNS1123Label("A".repeat(64))).toEqual(["must be no more than 63 characters", LABEL_ERROR]);
});

test("isDNS1035Label() requires a leading letter", () => {
  expect(isDNS1035Label("abc-123")).toEqual([]);
  expect(isDNS1035Label("1abc")).toEqual([
    "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')",
  ]);
});

test("isQualifiedName() checks the optional prefix and the name part", () => {
  for (
    const good of [
      "simple",
      "now-with-dashes",
      "1-starts-with-num",
      "1234",
      "simple/simple",
      "now-with-dashes/simple",
      "now-with-dashes/now-with-dashes",
      "now.with.dots/simple",
      "now-with.dashes-and.dots/simple",
      "1-num.2-num/3-num",
      "1234/5678",
      "1.2.3.4/5678",
      "Uppercase_Is_OK_123",
      "example.com/Uppercase_Is_OK_123",
      "requests.storage-foo",
      "a".repeat(63),
      `${"a".repeat(253)}/${"b".repeat(63)}`,
    ]
  ) {
    expect([good, isQualifiedName(good)]).toEqual([good, []]);
  }
  expect(isQualifiedName("nospecialchars%^=@")).toEqual([NAME_PART_ERROR]);
  expect(isQualifiedName("/simple")).toEqual(["prefix part must be non-empty"]);
  expect(isQualifiedName("example.com/")).toEqual(["name part must be non-empty", NAME_PART_ERROR]);
  expect(isQualifiedName("a".repeat(64))).toEqual(["name part must be no more than 63 characters"]);
  expect(isQualifiedName("Example.com/x")[0]).toStartWith("prefix part a lowercase RFC 1123 subdomain");
  expect(isQualifiedName("a/b/c")).toEqual([
    "a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
  ]);
});

test("isValidLabelValue() allows empty values and at most 63 characters", () => {
  for (
    const good of ["", "simple", "now-with-dashes", "1-starts-with-num", "end-with-num-1", "1234", "a".repeat(63), "Uppercase_Is_OK_123"]
  ) {
    expect([good, isValidLabelValue(good)]).toEqual([good, []]);
  }
  expect(isValidLabelValue("nospecialchars%^=@")).toHaveLength(1);
  expect(isValidLabelValue("-starts")).toHaveLength(1);
  expect(isValidLabelValue("a".repeat(64))).toEqual(["must be no more than 63 characters"]);
  expect(isValidLabelValue("é".repeat(32))).toEqual([
    "must be no more than 63 characters",
    expect.stringContaining("a valid label must be") as unknown as string,
  ]);
});

test("isValidPathSegmentName() rejects '.', '..', '/' and '%'", () => {
  expect(isValidPathSegmentName("My.Role:x")).toEqual([]);
  expect(isValidPathSegmentName("..")).toEqual(["may not be '..'"]);
  expect(isValidPathSegmentName("a/b%c")).toEqual(["may not contain '/'", "may not contain '%'"]);
  expect(nameIsPathSegment("..", true)).toEqual([]);
});

test("name validators allow a trailing dash only for generateName prefixes", () => {
  expect(nameIsDNSSubdomain("web-", true)).toEqual([]);
  expect(nameIsDNSSubdomain("web-", false)).toEqual([SUBDOMAIN_ERROR]);
  expect(nameIsDNSLabel("web-", true)).toEqual([]);
});

test("validateAnnotations() limits keys plus values to 256 KiB", () => {
  expect(validateAnnotations({ a: "x".repeat(256 * 1024 - 1) }, "metadata.annotations")).toEqual([]);
  expect(validateAnnotations({ a: "x".repeat(256 * 1024) }, "metadata.annotations")).toEqual([
    { type: "FieldValueTooLong", field: "metadata.annotations", value: "", detail: "must have at most 262144 bytes" },
  ]);
  expect(validateAnnotations({ "Example.COM/Key": "v" }, "metadata.annotations")).toEqual([]);
});

test("validateObjectMeta() requires a name and enforces the namespace rule", () => {
  const rules = { namespaced: true, nameValidator: nameIsDNSSubdomain };
  expect(validateObjectMeta({ name: "web", namespace: "default" }, rules)).toEqual([]);
  expect(validateObjectMeta({}, rules)).toEqual([
    { type: "FieldValueRequired", field: "metadata.name", detail: "name or generateName is required" },
    { type: "FieldValueRequired", field: "metadata.namespace", detail: "" },
  ]);
  expect(validateObjectMeta({ name: "n", namespace: "x" }, { ...rules, namespaced: false })).toEqual([
    { type: "FieldValueForbidden", field: "metadata.namespace", detail: "not allowed on this type" },
  ]);
  expect(validateObjectMeta({ name: "Web", namespace: "Bad.NS" }, rules).map((e) => e.field)).toEqual([
    "metadata.name",
    "metadata.namespace",
  ]);
});

test("validateObjectMeta() checks generateName, generation, labels, owners, finalizers and managedFields", () => {
  const errors = validateObjectMeta(
    {
      name: "web-abcde",
      generateName: "Web-",
      namespace: "ns",
      generation: -1,
      labels: { "bad key": "ok", good: "-bad-value" },
      ownerReferences: [
        { apiVersion: "apps/v1", kind: "ReplicaSet", name: "a", uid: "1", controller: true },
        { apiVersion: "apps/v1", kind: "ReplicaSet", name: "b", uid: "2", controller: true },
        { apiVersion: "v1", kind: "Event", name: "", uid: "3" },
      ],
      finalizers: ["orphan", "foregroundDeletion"],
      managedFields: [{ manager: "m", operation: "Patch", fieldsType: "FieldsV2" }],
    },
    { namespaced: true, nameValidator: nameIsDNSSubdomain },
  );
  expect(errors.map((e) => `${e.field}: ${e.detail}`)).toEqual([
    `metadata.generateName: ${SUBDOMAIN_ERROR}`,
    "metadata.generation: must be greater than or equal to 0",
    `metadata.labels: ${NAME_PART_ERROR}`,
    expect.stringContaining("metadata.labels: a valid label must be") as unknown as string,
    'metadata.ownerReferences: Only one reference can have Controller set to true. Found "true" in references for ReplicaSet/a and ReplicaSet/b',
    "metadata.ownerReferences.name: name must not be empty",
    "metadata.ownerReferences: /v1, Kind=Event is disallowed from being an owner",
    "metadata.finalizers: finalizer orphan and foregroundDeletion cannot be both set",
    "metadata.managedFields[0].operation: must be `Apply` or `Update`",
    "metadata.managedFields[0].fieldsType: must be `FieldsV1`",
  ]);
});

test("validateKubeFinalizerNames() accepts domain-prefixed and standard names and indexes the others (core validateKubeFinalizerName)", () => {
  expect(validateKubeFinalizerNames(["example.com/x", "kubernetes", "orphan", "foregroundDeletion"], "metadata.finalizers")).toEqual([]);
  expect(validateKubeFinalizerNames(["orphan", "cleanup"], "metadata.finalizers")).toEqual([{
    type: "FieldValueInvalid",
    field: "metadata.finalizers[1]",
    value: "cleanup",
    detail: "name is neither a standard finalizer name nor is it fully qualified",
  }]);
});
