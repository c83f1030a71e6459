/**
 * Configuration files checked against valibot schemas. A file that does not match stops start-up with the file,
 * each field path in kube's notation (`plugins[0].name`) and the reason, as kube-apiserver reports a bad
 * configuration file (its field.ErrorList, aggregated).
 */
import * as v from "valibot";

export class ConfigFileError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "ConfigFileError";
  }
}

/** kube's field path: `a.b[0].c`. */
function fieldPath(issue: v.BaseIssue<unknown>): string {
  let path = "";
  for (const item of issue.path ?? []) {
    const key = item.key;
    if (typeof key === "number") path += `[${key}]`;
    else path += path === "" ? String(key) : `.${String(key)}`;
  }
  return path;
}

const quoted = (input: unknown) => JSON.stringify(input) ?? String(input);

/** kube's field.Invalid as a valibot message: `Invalid value: "x": <detail>`. */
export const invalid = (detail: string) => (issue: v.BaseIssue<unknown>) => `Invalid value: ${quoted(issue.input)}: ${detail}`;

/** kube's field.Duplicate as a valibot message. */
export const duplicate = (issue: v.BaseIssue<unknown>) => `Duplicate value: ${quoted(issue.input)}`;

/** kube's field error wording (field.Required, field.NotSupported, field.Invalid) for valibot's issues. */
function kubeMessage(issue: v.BaseIssue<unknown>): string {
  if (issue.input === undefined) return "Required value";
  const input = quoted(issue.input);
  if (issue.type === "picklist" || issue.type === "literal") {
    const supported = (issue.expected ?? "").replace(/^\((.*)\)$/, "$1").split(" | ").join(", ");
    return `Unsupported value: ${input}: supported values: ${supported}`;
  }
  if (issue.kind === "schema") return `Invalid value: ${input}: must be of type ${(issue.expected ?? "").toLowerCase()}`;
  return `Invalid value: ${input}: ${issue.message}`;
}

/** The value as the schema's output, or a ConfigFileError naming `source` and every problem found. */
export function parseConfig<S extends v.GenericSchema>(schema: S, value: unknown, source: string): v.InferOutput<S> {
  const result = v.safeParse(schema, value, { message: kubeMessage });
  if (result.success) return result.output;
  const problems = result.issues.map((issue) => {
    const path = fieldPath(issue);
    return path === "" ? issue.message : `${path}: ${issue.message}`;
  });
  // kube's utilerrors aggregate: one error as it is, several in brackets.
  throw new ConfigFileError(`${source}: ${problems.length === 1 ? problems[0] : `[${problems.join(", ")}]`}`);
}
