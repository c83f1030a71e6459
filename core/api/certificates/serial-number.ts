/** Certificate serial numbers: 128 random bits, positive (Go's crypto/x509 rejects negative serial numbers). */
import { Buffer } from "node:buffer";

export function randomSerialNumber(): string {
  const bytes = globalThis.crypto.getRandomValues(new Uint8Array(16));
  bytes[0] = (bytes[0]! & 0x7f) | 0x01;
  return Buffer.from(bytes).toString("hex");
}
