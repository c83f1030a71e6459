/**
 * YAML bodies read the way kube's sigs.k8s.io/yaml reads them (YAML 1.1 scalars: yes/no/on/off are
 * booleans, timestamps stay strings), one document only, duplicate keys kept (last wins) and reported by path.
 * go-yaml's bounds apply: flow collections nest at most 10000 deep and alias expansion is limited, so a
 * hostile body is a 400 rather than unbounded work.
 */
import { MAX_STRICT_ERRORS } from "./_json-scan.ts";
import { type Document, isMap, isScalar, isSeq, type Node, parseAllDocuments } from "yaml";
import { mayHoldInexactInteger } from "./exact-integers.ts";

/** A body that is not acceptable YAML (as opposed to a bug), worded like sigs.k8s.io/yaml. */
export class YAMLBodyError extends Error {
  constructor(message: string) {
    super(`error converting YAML to JSON: yaml: ${message}`);
    this.name = "YAMLBodyError";
  }
}

/** gopkg.in/yaml.v2's max_flow_level (yaml_parser_increase_flow_level). */
const MAX_FLOW_DEPTH = 10000;
/** Characters after which `[`, `{` or a quote starts a node rather than sitting inside a plain scalar. */
const NODE_START = new Set(["", ":", "-", ",", "[", "{", "?"]);

/** The first line where flow collections nest deepest, and whether that goes past go-yaml's limit. */
interface FlowNesting {
  depth: number;
  /** Zero-based. */
  line: number;
}

/**
 * How deep `[` and `{` nest, stopping at the first one past go-yaml's limit. One linear pass over quotes, comments
 * and flow brackets.
 */
function flowNesting(text: string): FlowNesting {
  let depth = 0;
  let line = 0;
  let previous = "";
  const deepest: FlowNesting = { depth: 0, line: 0 };
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === "\n") {
      line++;
      previous = "";
    } else if (ch === "#" && (i === 0 || text[i - 1] === " " || text[i - 1] === "\t" || text[i - 1] === "\n")) {
      while (i + 1 < text.length && text[i + 1] !== "\n") i++;
    } else if ((ch === '"' || ch === "'") && NODE_START.has(previous)) {
      for (i++; i < text.length && text[i] !== ch; i++) {
        if (ch === '"' && text[i] === "\\") i++;
        else if (text[i] === "\n") line++;
      }
      previous = ch;
    } else if ((ch === "[" || ch === "{") && NODE_START.has(previous)) {
      if (++depth > deepest.depth) Object.assign(deepest, { depth, line });
      if (depth > MAX_FLOW_DEPTH) return deepest;
      previous = ch;
    } else if ((ch === "]" || ch === "}") && depth > 0) {
      depth--;
      previous = ch;
    } else if (ch !== " " && ch !== "\t" && ch !== "\r") {
      previous = ch;
    }
  }
  return deepest;
}

/** go-yaml's max_flow_level message; "line N: " is left out on the first line, as its parser.fail does for a zero line mark. */
function tooDeep(line: number): YAMLBodyError {
  return new YAMLBodyError(`${line === 0 ? "" : `line ${line + 1}: `}exceeded max depth of ${MAX_FLOW_DEPTH}`);
}

/**
 * The `yaml` library recurses per nesting level and runs out of stack some thousands of levels before go-yaml's
 * limit. Such a body is refused in go-yaml's words for too deep a body, at its deepest line, where kube would still
 * accept it: a known deviation, preferred to the library's stack message.
 */
function isLibraryStackExhaustion(e: unknown): boolean {
  return e instanceof RangeError || (e instanceof Error && e.message.startsWith("Maximum call stack size exceeded"));
}

/** The `yaml` library's alias limit stands in for go-yaml's alias ratio check; the answer is go-yaml's. */
function toValue(document: Document.Parsed, exact: boolean): unknown {
  try {
    return document.toJS({ maxAliasCount: 1000, reviver: exact ? exactIntegers : undefined });
  } catch (e) {
    if (e instanceof ReferenceError && /alias count/i.test(e.message)) throw new YAMLBodyError("document contains excessive aliasing");
    throw e;
  }
}

function keyText(key: unknown): string {
  return isScalar(key) ? String(key.value) : String(key);
}

/**
 * Paths of repeated keys, each once and at most MAX_STRICT_ERRORS, as kube's strict decoder collects them.
 * The path from the root is kept as segments and spelled out only for a new duplicate.
 */
function collectDuplicates(node: Node | null | undefined, segments: string[], out: Set<string>): void {
  if (isMap(node)) {
    const seen = new Set<string>();
    const reported = new Set<string>();
    for (const pair of node.items) {
      const key = keyText(pair.key);
      segments.push(segments.length === 0 ? key : `.${key}`);
      if (!seen.has(key)) seen.add(key);
      else if (out.size < MAX_STRICT_ERRORS && !reported.has(key)) {
        reported.add(key);
        out.add(segments.join(""));
      }
      collectDuplicates(pair.value as Node, segments, out);
      segments.pop();
    }
  } else if (isSeq(node)) {
    node.items.forEach((item, i) => {
      segments.push(`[${i}]`);
      collectDuplicates(item as Node, segments, out);
      segments.pop();
    });
  }
}

/** With BigInt integers read, those JavaScript numbers hold exactly go back to numbers. */
function exactIntegers(_key: unknown, value: unknown): unknown {
  return typeof value === "bigint" && value >= MIN_SAFE && value <= MAX_SAFE ? Number(value) : value;
}

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);
const MIN_SAFE = -MAX_SAFE;

export function readYAML(text: string): { value: unknown; duplicateFields: string[] } {
  const nesting = flowNesting(text);
  if (nesting.depth > MAX_FLOW_DEPTH) throw tooDeep(nesting.line);
  try {
    return readNestedYAML(text);
  } catch (e) {
    if (isLibraryStackExhaustion(e)) throw tooDeep(nesting.line);
    throw e;
  }
}

type ParseProblem = Document.Parsed["errors"][number];

/** The library's first problem with a body, in sigs.k8s.io/yaml's words and with its line. */
function parseFailure(problem: ParseProblem): YAMLBodyError {
  return new YAMLBodyError(`line ${problem.linePos?.[0].line ?? 1}: ${problem.message.split("\n")[0]}`);
}

function readNestedYAML(text: string): { value: unknown; duplicateFields: string[] } {
  // Integers beyond 2^53 stay exact (BigInt), as Go's int64 does; only texts that may hold one pay for it.
  const exact = mayHoldInexactInteger(text);
  const documents = parseAllDocuments(text, {
    version: "1.1",
    uniqueKeys: false,
    intAsBigInt: exact,
    customTags: (tags) => tags.filter((tag) => typeof tag === "object" && tag.tag !== "tag:yaml.org,2002:timestamp"),
  });
  // A stream without a document (blank, or comments only) is YAML null, as go-yaml reads it.
  if ("empty" in documents) {
    if (documents.errors[0]) throw parseFailure(documents.errors[0]);
    return { value: null, duplicateFields: [] };
  }
  const [document, ...rest] = documents;
  if (rest.some((extra) => extra.contents !== null)) throw new YAMLBodyError("a request body must hold exactly one YAML document");
  const problem = document.errors[0];
  if (problem && isLibraryStackExhaustion(problem)) throw problem;
  if (problem) throw parseFailure(problem);
  const duplicateFields = new Set<string>();
  collectDuplicates(document.contents as Node, [], duplicateFields);
  return { value: toValue(document, exact), duplicateFields: [...duplicateFields] };
}
