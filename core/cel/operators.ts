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
