/**
 * Names JavaScriptCore's JIT code for perf. A process run with BUN_JSC_useJITDump=1 and BUN_JSC_jitDumpDirectory=DIR
 * writes DIR/jit-<n>-<pid>.dump (the jitdump format: a header, then records, JIT_CODE_LOAD = 0 carrying the code's
 * address, size and name); perf reads names of anonymous executable memory from /tmp/perf-<pid>.map. Code freed and
 * compiled again reuses addresses, so a later record wins over the earlier ones it overlaps.
 */
import { readFileSync, writeFileSync } from "node:fs";

const CODE_LOAD = 0;
/** After the common record head (id, size, timestamp): pid, tid, vma, code address, code size, code index. */
const CODE_LOAD_FIELDS = 4 + 4 + 8 + 8 + 8 + 8;

interface CodeRange {
  address: bigint;
  size: bigint;
  name: string;
}

function codeLoads(dump: Buffer): CodeRange[] {
  const loads: CodeRange[] = [];
  for (let offset = dump.readUInt32LE(8); offset + 16 <= dump.length;) {
    const id = dump.readUInt32LE(offset);
    const size = dump.readUInt32LE(offset + 4);
    if (size === 0) break;
    if (id === CODE_LOAD) {
      const nameStart = offset + 16 + CODE_LOAD_FIELDS;
      loads.push({
        address: dump.readBigUInt64LE(offset + 16 + 16),
        size: dump.readBigUInt64LE(offset + 16 + 24),
        name: dump.toString("utf8", nameStart, dump.indexOf(0, nameStart)),
      });
    }
    offset += size;
  }
  return loads;
}

/** Writes /tmp/perf-<pid>.map from the process's jitdump file; answers how many code ranges it names. */
export function writePerfMap(dumpPath: string, pid: number): number {
  const kept: CodeRange[] = [];
  const overlaps = (a: CodeRange, b: CodeRange) => a.address < b.address + b.size && b.address < a.address + a.size;
  for (const range of codeLoads(readFileSync(dumpPath)).reverse()) {
    if (!kept.some((later) => overlaps(later, range))) kept.push(range);
  }
  const lines = kept.map(({ address, size, name }) => `${address.toString(16)} ${size.toString(16)} ${name}\n`);
  writeFileSync(`/tmp/perf-${pid}.map`, lines.join(""));
  return kept.length;
}
