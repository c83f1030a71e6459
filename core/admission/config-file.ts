/**
 * --admission-control-config-file: kube's AdmissionConfiguration (apiserver.config.k8s.io/v1, or the older
 * apiserver.k8s.io/v1alpha1), YAML or JSON, `plugins: [{name, configuration}|{name, path}]`; a `path` names a file
 * holding that plugin's configuration (relative to the configuration file).
 */
import { readFile } from "node:fs/promises";
import { dirname, isAbsolute, join } from "node:path";
import { parse } from "yaml";
import * as v from "valibot";
import { ConfigFileError, parseConfig } from "../config/mod.ts";

const ADMISSION_CONFIGURATION = v.looseObject({
  apiVersion: v.picklist(["apiserver.config.k8s.io/v1", "apiserver.k8s.io/v1alpha1"]),
  kind: v.literal("AdmissionConfiguration"),
  plugins: v.optional(
    v.nullable(
      v.array(
        v.looseObject({
          name: v.pipe(v.string(), v.minLength(1, "Required value")),
          path: v.optional(v.string()),
          configuration: v.optional(v.unknown()),
        }),
      ),
    ),
  ),
});

/** A plugin's configuration and where it was read, for error messages. */
export interface PluginConfigSection {
  configuration: unknown;
  /** The file and field path, e.g. `/etc/kubun/admission.yaml: plugins[2].configuration`. */
  source: string;
}

/** Each plugin's configuration by plugin name; empty without a file. */
export async function readAdmissionConfiguration(path: string): Promise<Map<string, PluginConfigSection>> {
  const sections = new Map<string, PluginConfigSection>();
  if (!path) return sections;
  const document = parseConfig(ADMISSION_CONFIGURATION, await readYaml(path), path);
  for (const [index, entry] of (document.plugins ?? []).entries()) {
    if (entry.path) {
      const file = isAbsolute(entry.path) ? entry.path : join(dirname(path), entry.path);
      sections.set(entry.name, { configuration: await readYaml(file), source: file });
    } else {
      sections.set(entry.name, { configuration: entry.configuration, source: `${path}: plugins[${index}].configuration` });
    }
  }
  return sections;
}

async function readYaml(path: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    throw new ConfigFileError(`cannot read admission configuration ${path}: ${(error as Error).message}`, { cause: error });
  }
  try {
    return parse(text);
  } catch (error) {
    throw new ConfigFileError(`admission configuration ${path}: ${(error as Error).message}`, { cause: error });
  }
}
