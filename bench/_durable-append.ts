/**
 * The physical floor of a durable per-write log on this machine: a record appended to a file and fdatasync'd
 * before the next, as any store that acknowledges each write after it is on disk must do at least. The kernel
 * counts a write by the 4 KiB page it dirties and fdatasync cleans the file's last page, so every record dirties
 * that page again: 4 KiB per record, whatever its size below that.
 */
import { closeSync, fdatasyncSync, mkdtempSync, openSync, rmSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { writtenBytes } from "./_process.ts";

/** Kernel write_bytes of this process per record of `recordBytes` appended and fdatasync'd, `count` times. */
export function durableAppendWriteBytes(count: number, recordBytes: number): number {
  const dir = mkdtempSync(join(tmpdir(), "kubun-bench-append-"));
  const fd = openSync(join(dir, "log"), "a");
  try {
    const record = Buffer.alloc(recordBytes, "x");
    const before = writtenBytes("self");
    for (let i = 0; i < count; i++) {
      writeSync(fd, record);
      fdatasyncSync(fd);
    }
    return (writtenBytes("self") - before) / count;
  } finally {
    closeSync(fd);
    rmSync(dir, { recursive: true, force: true });
  }
}
