/**
 * --admission-control-config-file: kube's AdmissionConfiguration (apiserver.config.k8s.io/v1), YAML or JSON,
 * `plugins: [{name, configuration}|{name, path}]`; a `path` names a file holding that plugin's configuration
 * (relative to the configuration file).
 */
import { readFile } from "node:fs/promises";
import { dirname, isAbsolute, join } from "node:path";
import { parse } from "yaml";
import { isPlainObject } from "../api/types.ts";

const KINDS = new Set(["AdmissionConfiguration"]);

/** Each plugin's configuration by plugin name; empty without a file. */
export async function readAdmissionConfiguration(path: string): Promise<Map<string, unknown>> {
  const sections = new Map<string, unknown>();
  if (!path) return sections;
  const document: unknown = parse(await readText(path));
  if (!isPlainObject(document) || !KINDS.has(String(document.kind))) {
    throw new Error(`admission configuration ${path}: expected kind AdmissionConfiguration`);
  }
  const plugins = document.plugins ?? [];
  if (!Array.isArray(plugins)) throw new Error(`admission configuration ${path}: plugins must be a list`);
  for (const entry of plugins) {
    if (!isPlainObject(entry) || typeof entry.name !== "string") throw new Error(`admission configuration ${path}: every plugin needs a name`);
    if (typeof entry.path === "string" && entry.path !== "") {
      const file = isAbsolute(entry.path) ? entry.path : join(dirname(path), entry.path);
      sections.set(entry.name, parse(await readText(file)));
    } else {
      sections.set(entry.name, entry.configuration);
    }
  }
  return sections;
}

async function readText(path: string): Promise<string> {
  try {
    return await readFile(path, "utf8");
  } catch (error) {
    throw new Error(`cannot read admission configuration ${path}: ${(error as Error).message}`);
  }
}
