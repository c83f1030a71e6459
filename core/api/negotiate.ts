/**
 * Content negotiation of responses (spec 4.4): picks the first acceptable media type from the Accept header's
 * fallback list among the representations the server can produce.
 */
import { newNotAcceptable } from "./errors.ts";

export type Representation =
  | { format: "json" }
  | { format: "protobuf" }
  | { format: "yaml" }
  | { format: "table"; version: "v1" | "v1beta1" }
  | { format: "partial-metadata"; version: "v1" | "v1beta1" };

interface MediaRange {
  type: string;
  params: Record<string, string>;
}

function parseAccept(header: string): MediaRange[] {
  return header.split(",").map((part) => {
    const [type, ...params] = part.split(";").map((s) => s.trim());
    const record: Record<string, string> = {};
    for (const p of params) {
      const eq = p.indexOf("=");
      if (eq > 0) record[p.slice(0, eq).trim().toLowerCase()] = p.slice(eq + 1).trim().replace(/^"|"$/g, "");
    }
    return { type: type.toLowerCase(), params: record };
  }).filter((r) => r.type !== "");
}

const PROTOBUF = "application/vnd.kubernetes.protobuf";
/**
 * What a 406 lists: kube's MediaTypesForSerializer, the media types of the endpoint's serializers, which are these
 * three for built-in kinds and custom resources alike (not the Table forms, nor protobuf's absence for the latter).
 */
const SERIALIZER_MEDIA_TYPES = ["application/json", "application/yaml", PROTOBUF];

export interface NegotiationOptions {
  /** Reads may ask for the Table form. */
  allowTable: boolean;
  /** The kind has a protobuf encoding (built-in kinds; not custom resources). */
  allowProtobuf: boolean;
}

function representationOf(range: MediaRange, options: NegotiationOptions): Representation | null {
  const { as, g, v } = range.params;
  if (range.type === PROTOBUF) return as === undefined && options.allowProtobuf ? { format: "protobuf" } : null;
  const isJson = range.type === "application/json" || range.type === "*/*" || range.type === "application/*";
  if (as === undefined) {
    if (isJson) return { format: "json" };
    if (range.type === "application/yaml") return { format: "yaml" };
    return null;
  }
  if (range.type !== "application/json" || g !== "meta.k8s.io" || (v !== "v1" && v !== "v1beta1")) return null;
  if (as === "Table" && options.allowTable) return { format: "table", version: v };
  if (as === "PartialObjectMetadata" || as === "PartialObjectMetadataList") return { format: "partial-metadata", version: v };
  return null;
}

/** Answers kept, by Accept header, for each pair of options (see negotiate); a full map is emptied, not grown. */
const NEGOTIATED_KEPT = 256;
const negotiated: Map<string, Representation>[] = [new Map(), new Map(), new Map(), new Map()];
const JSON_REPRESENTATION: Representation = Object.freeze({ format: "json" });

/**
 * The negotiated representation; 406 when nothing in the Accept list can be produced. A client sends one Accept
 * header request after request, so its answer is parsed once and kept (frozen: every request shares it).
 */
export function negotiate(accept: string | null | undefined, options: NegotiationOptions): Representation {
  if (!accept || accept.trim() === "") return JSON_REPRESENTATION;
  const kept = negotiated[(options.allowTable ? 2 : 0) + (options.allowProtobuf ? 1 : 0)]!;
  const known = kept.get(accept);
  if (known) return known;
  const chosen = Object.freeze(firstProducible(accept, options));
  if (kept.size >= NEGOTIATED_KEPT) kept.clear();
  kept.set(accept, chosen);
  return chosen;
}

/**
 * kube's NegotiateOutputMediaTypeStream: YAML has no stream serializer, so a watch negotiated to it is a 406 that
 * lists the media types that have one.
 */
export function assertStreamable(representation: Representation): void {
  if (representation.format !== "yaml") return;
  throw newNotAcceptable(["application/json;stream=watch", `${PROTOBUF};stream=watch`]);
}

function firstProducible(accept: string, options: NegotiationOptions): Representation {
  for (const range of parseAccept(accept)) {
    const chosen = representationOf(range, options);
    if (chosen) return chosen;
  }
  throw newNotAcceptable(SERIALIZER_MEDIA_TYPES);
}
