/**
 * The standard operators' overloads in cel-go as kube 1.26 configures it (no cross-type numeric comparisons, which
 * kube's environment enables only from 1.28): the result type of an operator applied to known types, or cel-go's
 * checker message when no overload takes them; and the string methods' overloads. Dyn operands are left to the
 * runtime.
 */
import { type CelType, printType, unifiable } from "./types.ts";

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

/** Operators over lists, maps and objects: equality where the operands unify, list concatenation; nothing else. */
function containerResult(name: string, args: CelType[]): CelType | string | undefined {
  if (args.some((arg) => arg.kind === "dyn") || args.length !== 2) return undefined;
  const names = args.map(printType);
  if (names.some((printed) => printed === undefined)) return undefined;
  const noOverload = `found no matching overload for '${name}' applied to '(${names.join(", ")})'`;
  if (name === "_==_" || name === "_!=_") return unifiable(args[0], args[1]) ? { kind: "bool" } : noOverload;
  if (name === "_+_") return args[0].kind === "list" && args[1].kind === "list" && unifiable(args[0], args[1]) ? args[0] : noOverload;
  return BINARY[name] ? noOverload : undefined;
}

/** The result of operator `name` over `args`; a string is the checker's error. Undefined: not decided here. */
export function operatorResult(name: string, args: CelType[]): CelType | string | undefined {
  if (args.some((arg) => ["list", "map", "object"].includes(arg.kind))) return containerResult(name, args);
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

/** kube's list library also declares indexOf and lastIndexOf on lists (overloads.ts checks those). */
const LIST_METHODS = new Set(["indexOf", "lastIndexOf"]);

/**
 * cel-go's checker message for a string method called on a known type that is not a string, or on a string with
 * known arguments no overload takes; undefined when an overload may apply.
 */
export function methodError(name: string, target: CelType, args: CelType[]): string | undefined {
  const overloads = STRING_METHODS[name];
  if (!overloads || target.kind === "dyn" || (target.kind === "list" && LIST_METHODS.has(name))) return undefined;
  const matches = target.kind === "string" &&
    overloads.some((kinds) => kinds.length === args.length && kinds.every((kind, i) => args[i].kind === "dyn" || args[i].kind === kind));
  if (matches) return undefined;
  const names = args.map(printType);
  const targetName = printType(target);
  if (targetName === undefined || names.some((printed) => printed === undefined)) return undefined;
  return `found no matching overload for '${name}' applied to '${targetName}.(${names.join(", ")})'`;
}
