/**
 * kubeconfig-format files the server reads (webhook configurations, admission webhook credentials): the schema
 * of the parts kube reads, and the certificate, key and token material they name inline (`*-data`) or by path,
 * paths being relative to the kubeconfig as in client-go.
 */
import { Buffer } from "node:buffer";
import { readFile } from "node:fs/promises";
import { dirname, isAbsolute, join } from "node:path";
import { parse } from "yaml";
import * as v from "valibot";
import { ConfigFileError, invalid, parseConfig } from "./validate.ts";

const optionalText = v.optional(v.string());

const cluster = v.looseObject({
  server: v.optional(v.pipe(v.string(), v.url(invalid("must be a URL")))),
  "certificate-authority": optionalText,
  "certificate-authority-data": optionalText,
  "insecure-skip-tls-verify": v.optional(v.boolean()),
});

const user = v.looseObject({
  "client-certificate": optionalText,
  "client-certificate-data": optionalText,
  "client-key": optionalText,
  "client-key-data": optionalText,
  token: optionalText,
  tokenFile: optionalText,
  username: optionalText,
  password: optionalText,
});

const context = v.looseObject({ cluster: optionalText, user: optionalText });
const name = v.pipe(v.string(), v.minLength(1, "Required value"));

const KUBECONFIG = v.looseObject({
  clusters: v.optional(v.array(v.looseObject({ name, cluster: v.optional(cluster, {}) })), []),
  users: v.optional(v.array(v.looseObject({ name, user: v.optional(user, {}) })), []),
  contexts: v.optional(v.array(v.looseObject({ name, context: v.optional(context, {}) })), []),
  "current-context": optionalText,
});

export type KubeconfigUser = v.InferOutput<typeof user>;

export interface Kubeconfig {
  path: string;
  document: v.InferOutput<typeof KUBECONFIG>;
}

export async function readKubeconfig(path: string): Promise<Kubeconfig> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    throw new ConfigFileError(`cannot read ${path}: ${(error as Error).message}`, { cause: error });
  }
  let document: unknown;
  try {
    document = parse(text);
  } catch (error) {
    throw new ConfigFileError(`${path}: not a kubeconfig file: ${(error as Error).message}`, { cause: error });
  }
  return { path, document: parseConfig(KUBECONFIG, document ?? {}, path) };
}

/** A file a kubeconfig names, relative to the kubeconfig's folder. */
export async function readReferencedFile(config: Kubeconfig, file: string): Promise<string> {
  return await readFile(isAbsolute(file) ? file : join(dirname(config.path), file), "utf8");
}

/** PEM material given inline as `<field>-data` (base64) or as a `<field>` path; undefined when neither is set. */
export async function material(
  config: Kubeconfig,
  entry: Record<string, unknown>,
  field: "certificate-authority" | "client-certificate" | "client-key",
): Promise<string | undefined> {
  const inline = entry[`${field}-data`];
  if (typeof inline === "string" && inline !== "") return Buffer.from(inline, "base64").toString("utf8");
  const path = entry[field];
  return typeof path === "string" && path !== "" ? await readReferencedFile(config, path) : undefined;
}
