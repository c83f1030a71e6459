/** Decodes a TokenRequest body (JSON, YAML or protobuf; kubectl sends protobuf). */
import { decodeBody, mediaTypeOf } from "../../api/decode-body.ts";
import { newBadRequest } from "../../api/errors.ts";
import { decodeProtobufObject, isProtobufCodecError, PROTOBUF_MEDIA_TYPE } from "../../api/protobuf/mod.ts";
import { isPlainObject } from "../../api/types.ts";
import { requestBytes } from "../../runtime/fetch-adapter.ts";

export const TOKEN_REQUEST_API_VERSION = "authentication.k8s.io/v1";
export const TOKEN_REQUEST_KIND = "TokenRequest";

export interface TokenRequestBody {
  metadata: { name?: string; namespace?: string };
  spec: {
    audiences?: string[];
    expirationSeconds?: number;
    boundObjectRef?: { apiVersion?: string; kind?: string; name?: string; uid?: string } | null;
  };
}

async function decodeValue(bytes: Uint8Array, contentType: string | null): Promise<Record<string, unknown>> {
  if (mediaTypeOf(contentType) !== PROTOBUF_MEDIA_TYPE) {
    return (await decodeBody(bytes, contentType, {
      accepted: ["application/json", "application/yaml", PROTOBUF_MEDIA_TYPE],
      kind: TOKEN_REQUEST_KIND,
    })).value;
  }
  try {
    return decodeProtobufObject(bytes).object;
  } catch (e) {
    if (isProtobufCodecError(e)) throw newBadRequest(e.message);
    throw e;
  }
}

export async function readTokenRequest(request: Request): Promise<TokenRequestBody> {
  const value = await decodeValue(await requestBytes(request), request.headers.get("content-type"));
  if (value.apiVersion !== undefined && value.apiVersion !== TOKEN_REQUEST_API_VERSION) {
    throw newBadRequest(
      `the API version in the data (${String(value.apiVersion)}) does not match the expected API version (${TOKEN_REQUEST_API_VERSION})`,
    );
  }
  if (value.kind !== undefined && value.kind !== TOKEN_REQUEST_KIND) {
    throw newBadRequest(
      `${
        String(value.kind)
      } in version "v1" cannot be handled as a ${TOKEN_REQUEST_KIND}: the kind of the body is not the kind of this resource`,
    );
  }
  const metadata = isPlainObject(value.metadata) ? value.metadata : {};
  const spec = isPlainObject(value.spec) ? value.spec : {};
  return { metadata: metadata as TokenRequestBody["metadata"], spec: spec as TokenRequestBody["spec"] };
}
