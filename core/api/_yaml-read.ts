/**
 * YAML bodies read the way kube's sigs.k8s.io/yaml reads them (YAML 1.1 scalars: yes/no/on/off are
 * booleans, timestamps stay strings), one document only, duplicate keys kept (last wins) and reported by path.
 */
import { isMap, isScalar, isSeq, parseAllDocuments, type Node } from "yaml";
import { mayHoldInexactInteger } from "./exact-integers.ts";

/** A body that is not acceptable YAML (as opposed to a bug), worded like sigs.k8s.io/yaml. */
export class YAMLBodyError extends Error {
  constructor(message: string) {
    super(`error converting YAML to JSON: yaml: ${message}`);
    this.name = "YAMLBodyError";
  }
}

function keyText(key: unknown): string {
  return isScalar(key) ? String(key.value) : String(key);
}

function collectDuplicates(node: Node | null | undefined, path: string, out: string[]): void {
  if (isMap(node)) {
    const seen = new Set<string>();
    for (const pair of node.items) {
      const key = keyText(pair.key);
      const childPath = path === "" ? key : `${path}.${key}`;
      if (seen.has(key)) out.push(childPath);
      seen.add(key);
      collectDuplicates(pair.value as Node, childPath, out);
    }
  } else if (isSeq(node)) {
    node.items.forEach((item, i) => collectDuplicates(item as Node, `${path}[${i}]`, out));
  }
}

/** With BigInt integers read, those JavaScript numbers hold exactly go back to numbers. */
function exactIntegers(_key: unknown, value: unknown): unknown {
  return typeof value === "bigint" && value >= MIN_SAFE && value <= MAX_SAFE ? Number(value) : value;
}

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);
const MIN_SAFE = -MAX_SAFE;

export function readYAML(text: string): { value: unknown; duplicateFields: string[] } {
  // Integers beyond 2^53 stay exact (BigInt), as Go's int64 does; only texts that may hold one pay for it.
  const exact = mayHoldInexactInteger(text);
  const documents = parseAllDocuments(text, {
    version: "1.1",
    uniqueKeys: false,
    intAsBigInt: exact,
    customTags: (tags) => tags.filter((tag) => typeof tag === "object" && tag.tag !== "tag:yaml.org,2002:timestamp"),
  });
  if (!Array.isArray(documents)) return { value: null, duplicateFields: [] };
  const [document, ...rest] = documents;
  if (rest.some((extra) => extra.contents !== null)) throw new YAMLBodyError("a request body must hold exactly one YAML document");
  const problem = document.errors[0];
  if (problem) throw new YAMLBodyError(`line ${problem.linePos?.[0].line ?? 1}: ${problem.message.split("\n")[0]}`);
  const duplicateFields: string[] = [];
  collectDuplicates(document.contents as Node, "", duplicateFields);
  return { value: document.toJS({ maxAliasCount: 1000, reviver: exact ? exactIntegers : undefined }), duplicateFields };
}
