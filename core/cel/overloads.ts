/**
 * Overload resolution of cel-go's checker for calls whose declared overloads kube 1.26's environment fixes and
 * whose operand types are known: logical operators and negation, the conditional's condition, indexing, `in`,
 * size(), kube's list functions (isSorted, sum, min, max, indexOf, lastIndexOf), join() and kube's URL functions. A call no overload
 * takes gives cel-go's "found no matching overload" message; dyn operands are left to the runtime.
 */
import { assignable, type CelType, printType } from "./types.ts";

type Accepts = (target: CelType | undefined, args: CelType[]) => boolean;

const is = (type: CelType | undefined, ...kinds: string[]) => type !== undefined && (type.kind === "dyn" || kinds.includes(type.kind));
const BOOLS: Accepts = (_, args) => args.every((arg) => is(arg, "bool"));
const SIZED = ["string", "bytes", "list", "map"];
// kube's lists.go declares isSorted, min and max per comparable element type and sum per summable one
// (comparableTypes, summableTypes); a list of maps, objects, lists or null matches none of them.
const COMPARABLE = ["int", "uint", "double", "bool", "duration", "timestamp", "string", "bytes"];
const SUMMABLE = ["int", "uint", "double", "duration"];
const listOf = (...kinds: string[]): Accepts => (target, args) =>
  args.length === 0 && (target?.kind === "list" ? is(target.elem, ...kinds) : is(target, "list"));
// list_a_index_of_int (list(A), A), beside ext.Strings' string overloads (checked by operators.ts' methodError).
const INDEX_OF: Accepts = (target, args) =>
  target?.kind === "list" ? args.length === 1 && assignable(args[0], target.elem) : is(target, "list", "string");
// urls.go: url(string) and isURL(string) are global; the accessors take a URL, which only a dyn can hold here.
const URL_FUNCTION: Accepts = (target, args) => target === undefined && args.length === 1 && is(args[0], "string");
const URL_ACCESSOR: Accepts = (target, args) => args.length === 0 && is(target);

/** Per function, whether some overload takes the operand types (dyn takes anything). */
const ACCEPTS: Record<string, Accepts> = {
  "_&&_": BOOLS,
  "_||_": BOOLS,
  "!_": BOOLS,
  "-_": (_, args) => is(args[0], "int", "double"),
  // conditional(bool, A, A): the second branch must be assignable to the first's type.
  "_?_:_": (_, [condition, first, second]) => is(condition, "bool") && (!first || !second || assignable(second, first)),
  // index_list(list(A), int) and index_map(map(string, V), string).
  "_[_]": (_, [container, key]) => is(container, "list", "map") && is(key, container?.kind === "map" ? "string" : "int"),
  // in_list(A, list(A)): the elements must be assignable to the item's type; in_map(string, map(string, V)).
  "@in": (_, [item, container]) =>
    container?.kind === "list"
      ? assignable(container.elem, item)
      : container?.kind === "map"
      ? is(item, "string")
      : is(container, "list", "map"),
  size: (target, args) => target ? is(target, ...SIZED) && args.length === 0 : args.length === 1 && is(args[0], ...SIZED),
  isSorted: listOf(...COMPARABLE),
  sum: listOf(...SUMMABLE),
  min: listOf(...COMPARABLE),
  max: listOf(...COMPARABLE),
  indexOf: INDEX_OF,
  join: (target, args) =>
    is(target, "list") && (target?.kind !== "list" || is(target.elem, "string")) && args.every((arg) => is(arg, "string")),
  lastIndexOf: INDEX_OF,
  url: URL_FUNCTION,
  isURL: URL_FUNCTION,
  getScheme: URL_ACCESSOR,
  getHost: URL_ACCESSOR,
  getHostname: URL_ACCESSOR,
  getPort: URL_ACCESSOR,
  getEscapedPath: URL_ACCESSOR,
  getQuery: URL_ACCESSOR,
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
