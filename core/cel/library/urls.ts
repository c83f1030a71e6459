/**
 * kube's CEL URL library of 1.26 (k8s.io/apiserver/pkg/cel/library/urls.go): `url()`, `isURL()` and the URL
 * accessors. A URL value is a map holding the parsed string under a key no CRD property can produce.
 */
import { type CelFunc, celFunc, type CelMap, celMethod, CelScalar, type CelValue, mapType } from "@bufbuild/cel";
import { escapedPath, type GoURL, hostname, parseRequestURI, port, query } from "./_go-url.ts";

const URL_KEY = "@url";
const URL_TYPE = mapType(CelScalar.STRING, CelScalar.DYN);

function toURL(text: string): Map<string, string> {
  try {
    parseRequestURI(text);
  } catch (e) {
    throw new Error(`URL parse error during conversion from string: ${(e as Error).message}`);
  }
  return new Map([[URL_KEY, text]]);
}

function parsed(value: CelMap): GoURL {
  const text = value.get(URL_KEY);
  if (typeof text !== "string") throw new Error("no such overload");
  return parseRequestURI(text);
}

function accessor(name: string, read: (url: GoURL) => CelValue | Map<string, string[]>): CelFunc {
  return celMethod(name, URL_TYPE, [], CelScalar.DYN, function () {
    return read(parsed(this)) as CelValue;
  });
}

export const urlFunctions: CelFunc[] = [
  celFunc("url", [CelScalar.STRING], URL_TYPE, (text) => toURL(text)),
  celFunc("isURL", [CelScalar.STRING], CelScalar.BOOL, (text) => {
    try {
      parseRequestURI(text);
      return true;
    } catch {
      return false;
    }
  }),
  accessor("getScheme", (url) => url.scheme),
  accessor("getHost", (url) => url.host),
  accessor("getHostname", hostname),
  accessor("getPort", port),
  accessor("getEscapedPath", escapedPath),
  accessor("getQuery", query),
];
