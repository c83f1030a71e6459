/**
 * Overload resolution of cel-go's checker for calls whose declared overloads kube 1.26's environment fixes and
 * whose operand types are known: logical operators and negation, the conditional's condition, indexing, `in`,
 * size(), and kube's list functions (isSorted, sum, min, max, indexOf, lastIndexOf) and join(). A call no overload
 * takes gives cel-go's "found no matching overload" message; dyn operands are left to the runtime.
 */
import { type CelType, printType, unifiable } from "./types.ts";

type Accepts = (target: CelType | undefined, args: CelType[]) => boolean;

const is = (type: CelType | undefined, ...kinds: string[]) => type !== undefined && (type.kind === "dyn" || kinds.includes(type.kind));
const BOOLS: Accepts = (_, args) => args.every((arg) => is(arg, "bool"));
const SIZED = ["string", "bytes", "list", "map"];
const LIST_FUNCTION: Accepts = (target) => is(target, "list");
const INDEX_OF: Accepts = (target) => is(target, "list", "string");

/** Per function, whether some overload takes the operand types (dyn takes anything). */
const ACCEPTS: Record<string, Accepts> = {
  "_&&_": BOOLS,
  "_||_": BOOLS,
  "!_": BOOLS,
  "-_": (_, args) => is(args[0], "int", "double"),
  "_?_:_": (_, args) => is(args[0], "bool"),
  // index_list(list(A), int) and index_map(map(string, V), string).
  "_[_]": (_, [container, key]) => is(container, "list", "map") && is(key, container?.kind === "map" ? "string" : "int"),
  // in_list(A, list(A)) and in_map(string, map(string, V)).
  "@in": (_, [item, container]) =>
    container?.kind === "list"
      ? unifiable(item, container.elem)
      : container?.kind === "map"
      ? is(item, "string")
      : is(container, "list", "map"),
  size: (target, args) => target ? is(target, ...SIZED) && args.length === 0 : args.length === 1 && is(args[0], ...SIZED),
  isSorted: LIST_FUNCTION,
  sum: LIST_FUNCTION,
  min: LIST_FUNCTION,
  max: LIST_FUNCTION,
  indexOf: INDEX_OF,
  join: (target, args) =>
    is(target, "list") && (target?.kind !== "list" || is(target.elem, "string")) && args.every((arg) => is(arg, "string")),
  lastIndexOf: INDEX_OF,
};

/** cel-go's checker message when no overload of `name` takes these operands, else undefined. */
export function overloadError(name: string, target: CelType | undefined, args: CelType[]): string | undefined {
  const accepts = ACCEPTS[name];
  if (!accepts || accepts(target, args)) return undefined;
  const names = args.map(printType);
  const targetName = target && printType(target);
  if (names.some((n) => n === undefined) || (target && targetName === undefined)) return undefined;
  const applied = target ? `${targetName}.(${names.join(", ")})` : `(${names.join(", ")})`;
  return `found no matching overload for '${name}' applied to '${applied}'`;
}
