import { expect, test } from "bun:test";
import { decodeBody, mediaTypeOf, PATCH_MEDIA_TYPES, WRITE_MEDIA_TYPES } from "./decode-body.ts";
import { newBadRequest } from "./errors.ts";
import { statusErrorOfAsync } from "./testing.ts";

const bytes = (text: string) => new TextEncoder().encode(text);
const write = { accepted: WRITE_MEDIA_TYPES };

test("(await decodeBody()) parses JSON with or without a charset parameter", async () => {
  for (const type of ["application/json", "application/json;charset=utf-8", "Application/JSON; charset=UTF-8", undefined]) {
    expect(await decodeBody(bytes('{"a":[1,{"b":null}]}'), type, write)).toEqual({
      mediaType: "application/json",
      value: { a: [1, { b: null }] },
      duplicateFields: [],
    });
  }
});

test("(await decodeBody()) parses every patch type in its own format", async () => {
  const patch = { accepted: PATCH_MEDIA_TYPES };
  expect((await decodeBody(bytes('[{"op":"remove","path":"/a"}]'), "application/json-patch+json", patch)).value).toEqual([{
    op: "remove",
    path: "/a",
  }]);
  expect((await decodeBody(bytes('{"a":null}'), "application/merge-patch+json", patch)).value).toEqual({ a: null });
  expect((await decodeBody(bytes('{"a":1}'), "application/strategic-merge-patch+json", patch)).value).toEqual({ a: 1 });
  expect((await decodeBody(bytes("kind: Pod\nmetadata:\n  name: x\n"), "application/apply-patch+yaml", patch)).value).toEqual({
    kind: "Pod",
    metadata: { name: "x" },
  });
});

test("(await decodeBody()) answers 415 listing the verb's media types for anything else", async () => {
  const cases: [string, readonly string[]][] = [
    ["text/plain", WRITE_MEDIA_TYPES],
    ["application/merge-patch+json", WRITE_MEDIA_TYPES],
    ["application/json", PATCH_MEDIA_TYPES],
  ];
  for (const [type, accepted] of cases) {
    const error = await statusErrorOfAsync(decodeBody(bytes("{}"), type, { accepted }));
    expect([error.code, error.message]).toEqual([
      415,
      `the body of the request was in an unknown format - accepted media types include: ${accepted.join(", ")}`,
    ]);
  }
});

test("(await decodeBody()) reports duplicate keys by field path and keeps the last value", async () => {
  const body = '{"metadata":{"name":"a","name":"b"},"spec":{"containers":[{"image":"x","image":"y"}]},"kind":"Pod","kind":"Pod"}';
  const decoded = await decodeBody(bytes(body), "application/json", write);
  expect(decoded.duplicateFields).toEqual(["metadata.name", "spec.containers[0].image", "kind"]);
  expect(decoded.value).toEqual({ metadata: { name: "b" }, spec: { containers: [{ image: "y" }] }, kind: "Pod" });
});

test("(await decodeBody()) does not mistake colons inside strings for keys", async () => {
  expect((await decodeBody(bytes('{"a":"x:y","b\\":c":"\\"::"}'), "application/json", write)).duplicateFields).toEqual([]);
  expect((await decodeBody(bytes('{"__proto__":{"a":1},"__proto__":2}'), "application/json", write)).duplicateFields).toEqual([
    "__proto__",
  ]);
});

test("(await decodeBody()) reports YAML duplicate keys by field path", async () => {
  const decoded = await decodeBody(bytes("metadata:\n  name: a\n  name: b\nitems:\n- k: 1\n  k: 2\n"), "application/yaml", write);
  expect(decoded.duplicateFields).toEqual(["metadata.name", "items[0].k"]);
  expect(decoded.value).toEqual({ metadata: { name: "b" }, items: [{ k: 2 }] });
});

test("(await decodeBody()) reads YAML scalars as kube's YAML 1.1 reader does", async () => {
  expect((await decodeBody(bytes("a: yes\nb: off\nc: 2023-01-01\nd: '1'\ne: 010\n"), "application/yaml", write)).value).toEqual({
    a: true,
    b: false,
    c: "2023-01-01",
    d: "1",
    e: 8,
  });
});

test("(await decodeBody()) rejects a YAML body with more than one document", async () => {
  const error = await statusErrorOfAsync(decodeBody(bytes("a: 1\n---\nb: 2\n"), "application/yaml", write));
  expect([error.code, error.message]).toEqual([
    400,
    "error converting YAML to JSON: yaml: a request body must hold exactly one YAML document",
  ]);
  expect((await decodeBody(bytes("---\na: 1\n"), "application/yaml", write)).value).toEqual({ a: 1 });
});

test("(await decodeBody()) answers 400 with Go's JSON messages for malformed or empty bodies", async () => {
  const cases: [string, string][] = [
    ["", "unexpected end of JSON input"],
    ["   ", "unexpected end of JSON input"],
    ["x", "invalid character 'x' looking for beginning of value"],
    ['{"a" 1}', "invalid character '1' after object key"],
    ['{"a":1 "b":2}', "invalid character '\"' after object key:value pair"],
    ["{a:1}", "invalid character 'a' looking for beginning of object key string"],
    ["[1 2]", "invalid character '2' after array element"],
    ["[1,]", "invalid character ']' looking for beginning of value"],
    ["{} {}", "invalid character '{' after top-level value"],
    ['{"a":tru}', "invalid character '}' in literal true (expecting 'e')"],
    ['{"a":01}', "invalid character '1' after object key:value pair"],
    ['{"a":1.}', "invalid character '}' after decimal point in numeric literal"],
    ['{"a":-}', "invalid character '}' in numeric literal"],
    ['{"a":"\\q"}', "invalid character 'q' in string escape code"],
    ['{"a":"\n"}', "invalid character '\\n' in string literal"],
    ['{"a":1', "unexpected end of JSON input"],
    ["é", "invalid character 'Ã' looking for beginning of value"],
  ];
  for (const [body, message] of cases) {
    const error = await statusErrorOfAsync(decodeBody(bytes(body), "application/json", write));
    expect([body, error.code, error.message]).toEqual([body, 400, `couldn't get version/kind; json parse error: ${message}`]);
  }
});

test("(await decodeBody()) words syntax errors like kube's decoder when the kind is known", async () => {
  const error = await statusErrorOfAsync(decodeBody(bytes("x"), "application/json", { ...write, kind: "Pod" }));
  expect(error.message).toBe(
    "the object provided is unrecognized (must be of type Pod): couldn't get version/kind; json parse error: invalid character 'x' looking for beginning of value (78)",
  );
  expect((await statusErrorOfAsync(decodeBody(bytes(""), "application/json", { ...write, kind: "Pod" }))).message).toEndWith(
    "unexpected end of JSON input (<empty>)",
  );
  expect((await statusErrorOfAsync(decodeBody(bytes('{"a":'), "application/json", { ...write, kind: "Pod" }))).message).toEndWith(
    '({"a":)',
  );
});

test("(await decodeBody()) answers 400 for YAML that does not parse", async () => {
  const error = await statusErrorOfAsync(decodeBody(bytes("a: [1, 2\n"), "application/yaml", write));
  expect(error.code).toBe(400);
  expect(error.message).toStartWith("error converting YAML to JSON: yaml: line ");
});

test("mediaTypeOf() drops parameters and defaults to JSON", () => {
  expect(mediaTypeOf("application/yaml; charset=utf-8")).toBe("application/yaml");
  expect(mediaTypeOf("")).toBe("application/json");
  expect(mediaTypeOf(null)).toBe("application/json");
});

const nested = (depth: number, open = "[", close = "]") => open.repeat(depth) + close.repeat(depth);

test("(await decodeBody()) accepts JSON nested 10000 deep and refuses deeper with Go's scanner message (pushParseState)", async () => {
  expect((await decodeBody(bytes(nested(10000)), "application/json", write)).value).toBeArray();
  for (const [body, ch] of [[nested(10001), "["], [`${'{"a":'.repeat(100000)}1${"}".repeat(100000)}`, "{"]] as const) {
    for (const mediaType of ["application/json", ...PATCH_MEDIA_TYPES.filter((t) => t.endsWith("json"))]) {
      const error = await statusErrorOfAsync(decodeBody(bytes(body), mediaType, { accepted: [mediaType] }));
      expect([mediaType, error.code, error.message]).toEqual([
        mediaType,
        400,
        `couldn't get version/kind; json parse error: invalid character '${ch}' exceeded max depth`,
      ]);
    }
  }
});

test("(await decodeBody()) reports a syntax error met before the nesting limit, as Go's scanner does", async () => {
  const error = await statusErrorOfAsync(decodeBody(bytes(`[x${nested(20000)}]`), "application/json", write));
  expect(error.message).toEndWith("invalid character 'x' looking for beginning of value");
});

test("(await decodeBody()) refuses YAML flow collections nested past go-yaml's max_flow_level", async () => {
  for (
    const [body, message] of [
      [`a: ${nested(100000)}\n`, "exceeded max depth of 10000"],
      [`a: 1\nb: ${nested(10001, "{a: ", "}")}\n`, "line 2: exceeded max depth of 10000"],
    ]
  ) {
    for (const mediaType of ["application/yaml", "application/apply-patch+yaml"]) {
      const error = await statusErrorOfAsync(decodeBody(bytes(body), mediaType, { accepted: [mediaType] }));
      expect([error.code, error.message]).toEqual([400, `error converting YAML to JSON: yaml: ${message}`]);
    }
  }
  expect((await decodeBody(bytes(`a: "${"[".repeat(20000)}"\nb: x[[[ # {{{{\n`), "application/yaml", write)).value).toEqual({
    a: "[".repeat(20000),
    b: "x[[[",
  });
});

test("(await decodeBody()) refuses YAML nested 7,400 to 10,000 deep, deeper than the yaml library's stack allows, in go-yaml's max_flow_level words", async () => {
  for (const [open, close] of [["[", "]"], ["{a: ", "}"]]) {
    for (const depth of [8000, 10000]) {
      const body = `apiVersion: v1\nkind: ConfigMap\ndata: ${nested(depth, open, close)}\n`;
      const error = await statusErrorOfAsync(decodeBody(bytes(body), "application/yaml", write));
      expect([depth, error.code, error.message]).toEqual([
        depth,
        400,
        "error converting YAML to JSON: yaml: line 3: exceeded max depth of 10000",
      ]);
    }
  }
});

test("(await decodeBody()) refuses a YAML alias bomb as go-yaml does (document contains excessive aliasing)", async () => {
  const levels = ["a: &a [x, x, x, x, x, x, x, x, x]"];
  for (let i = 1; i < 9; i++) levels.push(`${"abcdefghi"[i]}: &${"abcdefghi"[i]} [${Array(9).fill(`*${"abcdefghi"[i - 1]}`).join(", ")}]`);
  const error = await statusErrorOfAsync(decodeBody(bytes(levels.join("\n")), "application/yaml", write));
  expect([error.code, error.message]).toEqual([400, "error converting YAML to JSON: yaml: document contains excessive aliasing"]);
});

test("(await decodeBody()) reports each duplicate path once and at most 100 of them (sigs.k8s.io/json saveStrictError)", async () => {
  const repeated = `{"data":{${Array(50_000).fill('"k":"v"').join(",")}}}`;
  expect((await decodeBody(bytes(repeated), "application/json", write)).duplicateFields).toEqual(["data.k"]);
  const many = `{${Array.from({ length: 300 }, (_, i) => `"f${i}":1,"f${i}":2`).join(",")}}`;
  const fields = (await decodeBody(bytes(many), "application/json", write)).duplicateFields;
  expect(fields).toHaveLength(100);
  expect(fields.slice(0, 2)).toEqual(["f0", "f1"]);
});

test("(await decodeBody()) treats escaped spellings of one key as duplicates and counts array positions", async () => {
  const body = '{"a":{"b\\u0063":1,"bc":2},"l":[{"x":1},{"x":1,"x":2}],"s":"\\"{[,"}';
  expect((await decodeBody(bytes(body), "application/json", write)).duplicateFields).toEqual(["a.bc", "l[1].x"]);
});

test("(await decodeBody()) names a duplicate 9000 levels deep once however often it repeats", async () => {
  const body = `${'{"a":'.repeat(9000)}{${Array(20_000).fill('"k":1').join(",")}}${"}".repeat(9000)}`;
  const [path, ...rest] = (await decodeBody(bytes(body), "application/json", write)).duplicateFields;
  expect(rest).toEqual([]);
  expect(path).toBe(`${"a.".repeat(9000)}k`);
});

test("(await decodeBody()) reports a YAML key repeated 5,000 times once", async () => {
  const body = `data:\n${Array(5_000).fill("  k: v").join("\n")}\n`;
  expect((await decodeBody(bytes(body), "application/yaml", write)).duplicateFields).toEqual(["data.k"]);
});

test("(await decodeBody()) words a syntax error 9999 levels deep without running out of call stack", async () => {
  const error = await statusErrorOfAsync(decodeBody(bytes(`${"[".repeat(9999)}x`), "application/json", write));
  expect(error.message).toBe("couldn't get version/kind; json parse error: invalid character 'x' looking for beginning of value");
});

test("decodeBody() lets other work run between the pieces of a large body's scans (issue 20: a few ms per megabyte)", async () => {
  const repeated = `{"data":{${Array.from({ length: 200_000 }, (_, i) => `"k":"v${i % 10}"`).join(",")}}}`;
  let ranBetween = 0;
  const others = setInterval(() => ranBetween++, 0);
  const decoded = await decodeBody(bytes(repeated), "application/json", write);
  clearInterval(others);
  expect(decoded.duplicateFields).toEqual(["data.k"]);
  // Run to completion in one block, the decode would let no timer callback in before it resolved.
  expect(ranBetween).toBeGreaterThan(0);
});

test("(await decodeBody()) reads a YAML body without a document (blank, comments only) as null, as sigs.k8s.io/yaml's YAMLToJSON does", async () => {
  for (const body of ["", "  \n", "# nothing here\n# at all\n", "---\n", "null"]) {
    expect([body, (await decodeBody(bytes(body), "application/yaml", write)).value]).toEqual([body, null]);
  }
});

test("(await decodeBody()) with a kind: null is an empty object (Interpret finds no apiVersion/kind, unmarshal leaves it empty)", async () => {
  for (const [body, type] of [["null", "application/json"], ["# only a comment\n", "application/yaml"], ["", "application/yaml"]]) {
    expect((await decodeBody(bytes(body), type, { ...write, kind: "ConfigMap" })).value).toEqual({});
  }
});

test("(await decodeBody()) with a kind: a value that is not an object is Interpret's error in transformDecodeError's words", async () => {
  const typeMeta =
    'Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }';
  const cases: [string, string, string][] = [
    ['"text"', "application/json", `string into ${typeMeta} (227465787422)`],
    ["[1]", "application/json", `array into ${typeMeta} (5b315d)`],
    ["- a\n", "application/yaml", `array into ${typeMeta} (2d20610a)`],
    ["12345678901234567890", "application/yaml", `number into ${typeMeta} (3132333435363738393031323334353637383930)`],
    ["true", "application/json", `bool into ${typeMeta} (74727565)`],
  ];
  for (const [body, type, tail] of cases) {
    const error = await statusErrorOfAsync(decodeBody(bytes(body), type, { ...write, kind: "ConfigMap" }));
    expect([body, error.code, error.message]).toEqual([
      body,
      400,
      `the object provided is unrecognized (must be of type ConfigMap): couldn't get version/kind; json parse error: json: cannot unmarshal ${tail}`,
    ]);
  }
});

test("(await decodeBody()) hands YAML syntax errors to the caller's syntaxError, in sigs.k8s.io/yaml's words", async () => {
  const error = await statusErrorOfAsync(
    decodeBody(bytes("a: [1, 2\n"), "application/apply-patch+yaml", {
      accepted: PATCH_MEDIA_TYPES,
      syntaxError: (message) => newBadRequest(`wrapped: ${message}`),
    }),
  );
  expect(error.message).toStartWith("wrapped: error converting YAML to JSON: yaml: line ");
});

test("(await decodeBody()) finds a repeated key and the nesting of a body scanned over several turns", async () => {
  // Past 256 KiB the scan goes on in the next turn; a string and its colons cross the first piece's end.
  const long = "x:".repeat(150 * 1024);
  const repeated = `{"a":"${long}","b":[{"c":1,"c":2}],"a":[[[1]]]}`;
  expect((await decodeBody(bytes(repeated), "application/json", write)).duplicateFields).toEqual(["b[0].c", "a"]);
  expect((await decodeBody(bytes(`{"a":"${long}","b":[{"c":1}]}`), "application/json", write)).duplicateFields).toEqual([]);
});
