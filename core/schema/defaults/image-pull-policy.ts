/**
 * kube's container imagePullPolicy default: Always when the image's tag is `latest` (an image with
 * neither tag nor digest counts as `latest`), IfNotPresent otherwise, including images that do not
 * parse as a docker reference (kube ignores the parse error there).
 */

const PATH_COMPONENT = /^[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*$/;
const DOMAIN = /^(?:[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?)(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?)*(?::[0-9]+)?$/;
const TAG = /^[\w][\w.-]{0,127}$/;
const DIGEST = /^[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*:[0-9a-fA-F]{32,}$/;
const HEX_ID = /^[a-f0-9]{64}$/;
const MAX_NAME_LENGTH = 255;

/** The tag kube's parsers.ParseImageName reports: "latest" when none is given, "" for a digest-only or unparsable image. */
export function imageTag(image: string): string {
  const at = image.indexOf("@");
  const digest = at === -1 ? undefined : image.slice(at + 1);
  if (digest !== undefined && !DIGEST.test(digest)) return "";
  const nameAndTag = at === -1 ? image : image.slice(0, at);
  const colon = nameAndTag.lastIndexOf(":");
  const hasTag = colon > nameAndTag.lastIndexOf("/");
  const name = hasTag ? nameAndTag.slice(0, colon) : nameAndTag;
  const tag = hasTag ? nameAndTag.slice(colon + 1) : undefined;
  if (tag !== undefined && !TAG.test(tag)) return "";
  if (!isRepositoryName(name)) return "";
  return tag ?? (digest === undefined ? "latest" : "");
}

/** docker's normalized-name rules: an optional registry host first, then lower-case path components. */
function isRepositoryName(name: string): boolean {
  if (name.length === 0 || name.length > MAX_NAME_LENGTH || HEX_ID.test(name)) return false;
  const components = name.split("/");
  const first = components[0];
  const hasDomain = components.length > 1 && (first.includes(".") || first.includes(":") || first === "localhost");
  if (hasDomain && !DOMAIN.test(first)) return false;
  return (hasDomain ? components.slice(1) : components).every((c) => PATH_COMPONENT.test(c));
}

export function defaultPullPolicy(image: unknown): "Always" | "IfNotPresent" {
  return typeof image === "string" && imageTag(image) === "latest" ? "Always" : "IfNotPresent";
}
