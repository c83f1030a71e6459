/**
 * kube's bootstrap `jws.ComputeDetachedSignature`: a compact JWS (HS256, header {"alg":"HS256","kid":<id>}) over
 * the content with the payload segment left out (`header..signature`). The HMAC key is the token's secret part:
 * that is what kube signs and kubeadm verifies with, although kube's docs (and spec 5.13) say the full token.
 */
import { CompactSign } from "jose";

const encoder = new TextEncoder();

export async function detachedSignature(content: string, tokenId: string, tokenSecret: string): Promise<string> {
  const compact = await new CompactSign(encoder.encode(content)).setProtectedHeader({ alg: "HS256", kid: tokenId }).sign(
    encoder.encode(tokenSecret),
  );
  const [header, , signature] = compact.split(".");
  return `${header}..${signature}`;
}
