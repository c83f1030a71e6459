/**
 * The standard operators' overloads in cel-go as kube 1.26 configures it (no cross-type numeric comparisons, which
 * kube's environment enables only from 1.28): the result type of an operator applied to known scalar types, or
 * cel-go's checker message when no overload takes them. Lists, maps, objects and dyn are left to the runtime.
 */
import type { CelType } from "./check.ts";

type Scalar = "bool" | "int" | "uint" | "double" | "string" | "bytes" | "timestamp" | "duration" | "null_type";

const SCALARS = new Set<string>(["bool", "int", "uint", "double", "string", "bytes", "timestamp", "duration", "null_type"]);
const NUMBERS = ["int", "uint", "double"];
const ORDERED = [...NUMBERS, "string", "bytes", "bool", "timestamp", "duration"];

/** How cel-go's checker names a type in "applied to '(...)'". */
function typeName(kind: Scalar): string {
  if (kind === "timestamp") return "google.protobuf.Timestamp";
  if (kind === "duration") return "google.protobuf.Duration";
  return kind;
}

/** name → [argument kinds, result kind] overloads, for two-argument operators. */
const BINARY: Record<string, [string, string, string][]> = {
  "_+_": [
    ...NUMBERS.map((n) => [n, n, n] as [string, string, string]),
    ["string", "string", "string"],
    ["bytes", "bytes", "bytes"],
    ["timestamp", "duration", "timestamp"],
    ["duration", "timestamp", "timestamp"],
    ["duration", "duration", "duration"],
  ],
  "_-_": [
    ...NUMBERS.map((n) => [n, n, n] as [string, string, string]),
    ["timestamp", "timestamp", "duration"],
    ["timestamp", "duration", "timestamp"],
    ["duration", "duration", "duration"],
  ],
  "_*_": NUMBERS.map((n) => [n, n, n]),
  "_/_": NUMBERS.map((n) => [n, n, n]),
  "_%_": [["int", "int", "int"], ["uint", "uint", "uint"]],
  "_<_": ORDERED.map((t) => [t, t, "bool"]),
  "_<=_": ORDERED.map((t) => [t, t, "bool"]),
  "_>_": ORDERED.map((t) => [t, t, "bool"]),
  "_>=_": ORDERED.map((t) => [t, t, "bool"]),
};

/** The result of operator `name` over `args`; a string is the checker's error. Undefined: not decided here. */
export function operatorResult(name: string, args: CelType[]): CelType | string | undefined {
  if (!args.every((arg) => SCALARS.has(arg.kind))) return undefined;
  const kinds = args.map((arg) => arg.kind as Scalar);
  const noOverload = `found no matching overload for '${name}' applied to '(${kinds.map(typeName).join(", ")})'`;
  if (name === "_==_" || name === "_!=_") {
    return kinds[0] === kinds[1] || kinds.includes("null_type") ? { kind: "bool" } : noOverload;
  }
  const overloads = BINARY[name];
  if (!overloads) return undefined;
  const found = overloads.find(([a, b]) => a === kinds[0] && b === kinds[1]);
  return found ? { kind: found[2] } as CelType : noOverload;
}

/** String methods of the standard library, ext.Strings and kube's regex library: argument kinds per overload. */
const STRING_METHODS: Record<string, string[][]> = {
  startsWith: [["string"]],
  endsWith: [["string"]],
  contains: [["string"]],
  matches: [["string"]],
  charAt: [["int"]],
  indexOf: [["string"], ["string", "int"]],
  lastIndexOf: [["string"], ["string", "int"]],
  lowerAscii: [[]],
  upperAscii: [[]],
  trim: [[]],
  replace: [["string", "string"], ["string", "string", "int"]],
  split: [["string"], ["string", "int"]],
  substring: [["int"], ["int", "int"]],
  find: [["string"]],
  findAll: [["string"], ["string", "int"]],
};

/**
 * cel-go's checker message for a string method called on a known scalar that is not a string, or on a string with
 * known arguments no overload takes; undefined when an overload may apply.
 */
export function methodError(name: string, target: CelType, args: CelType[]): string | undefined {
  const overloads = STRING_METHODS[name];
  if (!overloads || !SCALARS.has(target.kind) || !args.every((arg) => SCALARS.has(arg.kind) || arg.kind === "dyn")) return undefined;
  const matches = target.kind === "string" &&
    overloads.some((kinds) => kinds.length === args.length && kinds.every((kind, i) => args[i].kind === "dyn" || args[i].kind === kind));
  if (matches) return undefined;
  const names = args.map((arg) => arg.kind === "dyn" ? "dyn" : typeName(arg.kind as Scalar));
  return `found no matching overload for '${name}' applied to '${typeName(target.kind as Scalar)}.(${names.join(", ")})'`;
}
