/**
 * The --config file: YAML whose keys are flag names without dashes. Values come back as the text
 * a command line would carry, so one parser validates both.
 */
import { readFileSync } from "node:fs";
import { parse } from "yaml";
import { isPlainObject } from "../api/types.ts";

export function readConfigFile(path: string): Map<string, string> {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    throw new Error(`cannot read config file ${path}: ${(error as Error).message}`);
  }
  const document: unknown = parse(text) ?? {};
  if (!isPlainObject(document)) throw new Error(`config file ${path} must be a YAML mapping of flag names to values`);
  const values = new Map<string, string>();
  for (const [name, value] of Object.entries(document)) {
    if (value === null || typeof value === "object") throw new Error(`config file ${path}: ${name} must be a scalar value`);
    values.set(name, String(value));
  }
  return values;
}
