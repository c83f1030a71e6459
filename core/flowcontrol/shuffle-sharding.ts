/**
 * Shuffle sharding (k8s.io/apiserver pkg/util/shufflesharding Deal) and the flow hash it is fed (kube's
 * hashFlowID: the first 8 bytes, little-endian, of SHA-256 over the FlowSchema name, a zero byte and the
 * flow distinguisher).
 */
import { createHash } from "node:crypto";

/** kube's hashFlowID. */
export function hashFlowID(flowSchemaName: string, distinguisher: string): bigint {
  const sum = createHash("sha256").update(flowSchemaName).update(new Uint8Array([0])).update(distinguisher).digest();
  return sum.readBigUInt64LE(0);
}

/** kube's shufflesharding.Deal: `handSize` distinct queue indices out of `deckSize`, drawn from the hash. */
export function dealHand(hashValue: bigint, deckSize: number, handSize: number): number[] {
  const remainders: number[] = [];
  let rest = hashValue;
  for (let i = 0; i < handSize; i++) {
    const divisor = BigInt(deckSize - i);
    remainders.push(Number(rest % divisor));
    rest /= divisor;
  }
  return remainders.map((remainder, i) => {
    let card = remainder;
    for (let j = i; j > 0; j--) if (card >= remainders[j - 1]) card++;
    return card;
  });
}
