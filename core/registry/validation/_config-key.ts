/** Keys of Secret and ConfigMap data (IsConfigMapKey) and the shared 1 MiB size limit. */
import { DNS1123_SUBDOMAIN_MAX_LENGTH, maxLenError, regexError } from "../../api/names.ts";

export const MAX_DATA_SIZE = 1024 * 1024;
const CONFIG_KEY_FMT = "[-._a-zA-Z0-9]+";
const CONFIG_KEY_RE = /^[-._a-zA-Z0-9]+$/;

export function isConfigMapKey(key: string): string[] {
  const errors: string[] = [];
  if (key.length > DNS1123_SUBDOMAIN_MAX_LENGTH) errors.push(maxLenError(DNS1123_SUBDOMAIN_MAX_LENGTH));
  if (!CONFIG_KEY_RE.test(key)) {
    errors.push(
      regexError(
        "a valid config key must consist of alphanumeric characters, '-', '_' or '.'",
        CONFIG_KEY_FMT,
        "key.name",
        "KEY_NAME",
        "key-name",
      ),
    );
  }
  if (key === ".") errors.push("must not be '.'");
  else if (key === "..") errors.push("must not be '..'");
  else if (key.startsWith("..")) errors.push("must not start with '..'");
  return errors;
}
