/**
 * The --config file: YAML whose keys are flag names without dashes. Values come back as the text
 * a command line would carry, so one parser validates both.
 */
import { readFileSync } from "node:fs";
import { parse } from "yaml";
import * as v from "valibot";
import { ConfigFileError, invalid, parseConfig } from "../config/mod.ts";

const FLAG_VALUES = v.pipe(
  // valibot's record would take a list as a record of indexes; a list of flags is no mapping of flag names.
  v.custom<unknown>((value) => !Array.isArray(value), invalid("must be a mapping of flag names to values")),
  v.record(v.string(), v.union([v.string(), v.number(), v.boolean()], invalid("must be a scalar value"))),
);

export function readConfigFile(path: string): Map<string, string> {
  let document: unknown;
  try {
    document = parse(readFileSync(path, "utf8"));
  } catch (error) {
    throw new ConfigFileError(`cannot read config file ${path}: ${(error as Error).message}`, { cause: error });
  }
  const values = parseConfig(v.nullish(FLAG_VALUES, {}), document, `config file ${path}`);
  return new Map(Object.entries(values).map(([name, value]) => [name, String(value)]));
}
