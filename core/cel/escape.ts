/**
 * kube's escaping of property names into CEL identifiers (k8s.io/apiserver/pkg/cel escaping.go Escape): CEL
 * reserved words become `__word__`; `__`, `.`, `-`, `/` become `__underscores__`, `__dot__`, `__dash__`,
 * `__slash__`; names with other characters, or starting with a digit, cannot be reached from a rule.
 */
const RESERVED = new Set([
  "true",
  "false",
  "null",
  "in",
  "as",
  "break",
  "const",
  "continue",
  "else",
  "for",
  "function",
  "if",
  "import",
  "let",
  "loop",
  "package",
  "namespace",
  "return",
  "var",
  "void",
  "while",
]);

const REPLACEMENTS: Record<string, string> = { "__": "__underscores__", ".": "__dot__", "-": "__dash__", "/": "__slash__" };

const escaped = new Map<string, string | undefined>();

/** The identifier a rule uses for property `name`; undefined when kube cannot escape it. */
export function escapePropertyName(name: string): string | undefined {
  if (escaped.has(name)) return escaped.get(name);
  const result = escape(name);
  // Property names come from CRD schemas: few, and asked for on every validation.
  if (escaped.size < 10_000) escaped.set(name, result);
  return result;
}

function escape(name: string): string | undefined {
  if (name === "" || /^[0-9]/.test(name)) return undefined;
  if (RESERVED.has(name)) return `__${name}__`;
  if (/[^a-zA-Z0-9\-./_]/.test(name)) return undefined;
  return name.replace(/__|[-./]/g, (part) => REPLACEMENTS[part]);
}
