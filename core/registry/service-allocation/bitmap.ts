/**
 * kube's allocator.AllocationBitmap (pkg/registry/core/service/allocator/bitmap.go): bit `offset` set = that
 * value is allocated. Snapshot() stores the bits as `big.Int.Bytes()` — big-endian, no leading zero bytes — so the
 * RangeAllocation kubun writes is the one kube-apiserver reads, and the other way round.
 */
export class AllocationBitmap {
  /** Little-endian: byte i holds offsets 8i..8i+7, so growing never moves existing bits. */
  #bytes: Uint8Array;

  private constructor(bytes: Uint8Array) {
    this.#bytes = bytes;
  }

  static empty(): AllocationBitmap {
    return new AllocationBitmap(new Uint8Array(0));
  }

  /** From kube's stored bytes (big.Int.SetBytes). */
  static fromKubeBytes(data: Uint8Array): AllocationBitmap {
    return new AllocationBitmap(Uint8Array.from(data).reverse());
  }

  /** kube's big.Int.Bytes(): big-endian, leading zero bytes dropped (an empty map is no bytes at all). */
  toKubeBytes(): Uint8Array {
    let length = this.#bytes.length;
    while (length > 0 && this.#bytes[length - 1] === 0) length--;
    return this.#bytes.slice(0, length).reverse();
  }

  has(offset: number): boolean {
    return ((this.#bytes[offset >> 3] ?? 0) & (1 << (offset & 7))) !== 0;
  }

  set(offset: number): void {
    const index = offset >> 3;
    if (index >= this.#bytes.length) {
      const grown = new Uint8Array(index + 1);
      grown.set(this.#bytes);
      this.#bytes = grown;
    }
    this.#bytes[index]! |= 1 << (offset & 7);
  }

  clear(offset: number): void {
    const index = offset >> 3;
    if (index < this.#bytes.length) this.#bytes[index]! &= ~(1 << (offset & 7));
  }

  /** The allocated offsets, ascending (kube's ForEach). */
  *offsets(): Generator<number> {
    for (let index = 0; index < this.#bytes.length; index++) {
      const byte = this.#bytes[index]!;
      for (let bit = 0; bit < 8; bit++) if (byte & (1 << bit)) yield index * 8 + bit;
    }
  }
}
