/**
 * Serves /openapi/v2, /openapi/v3 (the index) and /openapi/v3/<key> as kube-apiserver 1.26 does
 * (k8s.io/kube-openapi handler3): documents built from the catalog on first request, cached with
 * their uppercase-hex SHA-512 until the catalog changes.
 */
import { createHash } from "node:crypto";
import type { Catalog } from "../registry/catalog.ts";
import { builtInSchemas, type SchemaLookup } from "../schema/lookup.ts";
import { type AggregatedOpenApiSource, aggregatedV3, withAggregatedV2 } from "./openapi-aggregated.ts";
import { definitionDescriber, type Descriptions } from "./openapi-descriptions.ts";
import { combinedSource, documentKeys, documentSource } from "./openapi-documents.ts";
import { v2Document } from "./openapi-v2.ts";
import { encodeOpenApiV2Protobuf, OPENAPI_V2_PROTOBUF_CONTENT_TYPE } from "./openapi-v2-protobuf.ts";
import { v3Document } from "./openapi-v3.ts";

export interface OpenApiOptions {
  schemas?: SchemaLookup;
  /** info.version of /openapi/v2. */
  serverVersion?: string;
  /** Prose merged into the served schemas (--openapi-descriptions). */
  descriptions?: Descriptions;
  /** Aggregated servers' documents, merged in. */
  aggregated?: AggregatedOpenApiSource;
}

interface Rendered {
  body: string | Uint8Array;
  contentType: string;
  hash: string;
  lastModified: Date;
}

const V3_PREFIX = "/openapi/v3/";
const ONE_YEAR_MS = 365 * 24 * 60 * 60 * 1000;

/** kube-openapi's document hash: SHA-512 of the served bytes, uppercase hex. */
export function documentHash(body: string | Uint8Array): string {
  return createHash("sha512").update(body).digest("hex").toUpperCase();
}

function rendered(document: unknown): Rendered {
  const body = JSON.stringify(document);
  return { body, contentType: "application/json", hash: documentHash(body), lastModified: new Date() };
}

function renderedV2Protobuf(document: Record<string, unknown>): Rendered {
  const body = encodeOpenApiV2Protobuf(document);
  return { body, contentType: OPENAPI_V2_PROTOBUF_CONTENT_TYPE, hash: documentHash(body), lastModified: new Date() };
}

// kube-openapi accepts both spellings of the gnostic v2 media type ('@' is what kubectl sends).
const V2_PROTOBUF_SUBTYPES = new Set(["com.github.proto-openapi.spec.v2@v1.0+protobuf", "com.github.proto-openapi.spec.v2.v1.0+protobuf"]);

/** The first form in the Accept list the document can be served in (absent means JSON); null when none. */
function acceptedForm(accept: string | null, allowProtobuf: boolean): "json" | "protobuf" | null {
  if (!accept) return "json";
  for (const clause of accept.split(",")) {
    const [type = "", subtype = ""] = clause.split(";")[0].trim().toLowerCase().split("/");
    if ((type === "application" || type === "*") && (subtype === "json" || subtype === "*")) return "json";
    if (allowProtobuf && type === "application" && V2_PROTOBUF_SUBTYPES.has(subtype)) return "protobuf";
  }
  return null;
}

function answer(request: Request, document: Rendered, cacheHeaders: Record<string, string>): Response {
  const etag = `"${document.hash}"`;
  const headers = { ETag: etag, Vary: "Accept", "Last-Modified": document.lastModified.toUTCString(), ...cacheHeaders };
  if (request.headers.get("if-none-match") === etag) return new Response(null, { status: 304, headers });
  const body = request.method === "HEAD" ? null : document.body;
  return new Response(body as BodyInit | null, { status: 200, headers: { ...headers, "Content-Type": document.contentType } });
}

const NO_CACHE = { "Cache-Control": "no-cache, private" };

/** The handler the server mounts: answers OpenAPI paths, null for any other path. */
export function createOpenApiHandler(
  catalog: Catalog,
  options: OpenApiOptions = {},
): (request: Request) => Promise<Response | null> {
  const schemas = options.schemas ?? builtInSchemas;
  const serverVersion = options.serverVersion ?? "v1.26.15";
  const describe = definitionDescriber(options.descriptions ?? new Map());
  const v3 = new Map<string, Rendered>();
  let index: Rendered | undefined;
  let v2Source: Record<string, unknown> | undefined;
  let v2: Rendered | undefined;
  let v2Protobuf: Rendered | undefined;
  const invalidate = () => {
    v3.clear();
    index = undefined;
    v2Source = undefined;
    v2 = undefined;
    v2Protobuf = undefined;
  };
  catalog.onChange(invalidate);
  options.aggregated?.onChange(invalidate);
  const aggregatedDocuments = () => options.aggregated?.documents() ?? [];

  const v3For = (key: string): Rendered | undefined => {
    const cached = v3.get(key);
    if (cached) return cached;
    const source = documentSource(catalog, schemas, key);
    const aggregated = source ? undefined : aggregatedV3(aggregatedDocuments(), documentKeys(catalog)).get(key);
    if (!source && !aggregated) return undefined;
    const document = rendered(source ? v3Document(source.paths, describe(source.definitions)) : aggregated);
    v3.set(key, document);
    return document;
  };
  const v3Keys = (): string[] => {
    const local = documentKeys(catalog);
    return [...local, ...aggregatedV3(aggregatedDocuments(), local).keys()].sort();
  };
  const v3Index = (): Rendered => {
    index ??= rendered({
      paths: Object.fromEntries(
        v3Keys().map((key) => [
          key,
          { serverRelativeURL: `${V3_PREFIX}${key}?hash=${v3For(key)!.hash}` },
        ]),
      ),
    });
    return index;
  };

  return (request) => {
    const url = new URL(request.url);
    const path = url.pathname;
    if (path !== "/openapi/v2" && path !== "/openapi/v3" && !path.startsWith(V3_PREFIX)) return Promise.resolve(null);
    if (request.method !== "GET" && request.method !== "HEAD") {
      return Promise.resolve(new Response("method not allowed", { status: 405, headers: { Allow: "GET, HEAD" } }));
    }
    const form = acceptedForm(request.headers.get("accept"), path === "/openapi/v2");
    if (form === null) return Promise.resolve(new Response(null, { status: 406 }));
    if (path === "/openapi/v2") {
      if (!v2Source) {
        const combined = combinedSource(catalog, schemas);
        v2Source = withAggregatedV2(
          v2Document({ ...combined, definitions: describe(combined.definitions) }, serverVersion),
          aggregatedDocuments(),
        );
      }
      const document = form === "json" ? (v2 ??= rendered(v2Source)) : (v2Protobuf ??= renderedV2Protobuf(v2Source));
      return Promise.resolve(answer(request, document, NO_CACHE));
    }
    if (path === "/openapi/v3") return Promise.resolve(answer(request, v3Index(), NO_CACHE));
    const key = path.slice(V3_PREFIX.length);
    const document = v3For(key);
    if (!document) return Promise.resolve(new Response("404 page not found", { status: 404 }));
    const hash = url.searchParams.get("hash");
    if (!hash) return Promise.resolve(answer(request, document, NO_CACHE));
    if (hash !== document.hash) {
      const location = `${V3_PREFIX}${key}?hash=${document.hash}`;
      return Promise.resolve(new Response(null, { status: 301, headers: { Location: location } }));
    }
    return Promise.resolve(answer(request, document, {
      "Cache-Control": "public, immutable",
      Expires: new Date(Date.now() + ONE_YEAR_MS).toUTCString(),
    }));
  };
}
