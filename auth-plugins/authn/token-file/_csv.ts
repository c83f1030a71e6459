/**
 * CSV records as Go's encoding/csv reads them with its defaults (kube parses --token-auth-file with it):
 * comma-separated, `"` quoting with `""` as an escaped quote, quoted fields may span lines, blank lines
 * skipped, spaces kept, `\r\n` read as `\n`, any number of fields per record.
 */

/** Go's csv.ParseError wording, e.g. `parse error on line 2, column 5: bare " in non-quoted-field`. */
export class CsvParseError extends Error {
  constructor(startLine: number, line: number, column: number, reason: string) {
    super(
      startLine === line
        ? `parse error on line ${line}, column ${column}: ${reason}`
        : `record on line ${startLine}; parse error on line ${line}, column ${column}: ${reason}`,
    );
    this.name = "CsvParseError";
  }
}

const BARE_QUOTE = 'bare " in non-quoted-field';
const MISSING_QUOTE = 'extraneous or missing " in quoted-field';

export function parseCsv(text: string): string[][] {
  const lines = text.replaceAll("\r\n", "\n").split("\n");
  // A final newline does not start another (empty) line.
  if (lines.at(-1) === "") lines.pop();
  const records: string[][] = [];
  let index = 0;
  while (index < lines.length) {
    if (lines[index] === "") {
      index++;
      continue;
    }
    const { record, next } = readRecord(lines, index);
    records.push(record);
    index = next;
  }
  return records;
}

/** Reads the record starting at lines[start]; returns it and the index of the line after it. */
function readRecord(lines: string[], start: number): { record: string[]; next: number } {
  const record: string[] = [];
  let lineIndex = start;
  let line = lines[lineIndex]!;
  let position = 0;
  for (;;) {
    if (line[position] !== '"') {
      const comma = line.indexOf(",", position);
      const field = comma === -1 ? line.slice(position) : line.slice(position, comma);
      const quote = field.indexOf('"');
      if (quote !== -1) throw new CsvParseError(start + 1, lineIndex + 1, position + quote + 1, BARE_QUOTE);
      record.push(field);
      if (comma === -1) return { record, next: lineIndex + 1 };
      position = comma + 1;
      continue;
    }
    // Quoted field: runs to the next lone quote, across line breaks.
    let field = "";
    position++;
    for (;;) {
      const quote = line.indexOf('"', position);
      if (quote === -1) {
        field += line.slice(position);
        if (lineIndex + 1 >= lines.length) throw new CsvParseError(start + 1, lineIndex + 1, line.length + 1, MISSING_QUOTE);
        field += "\n";
        line = lines[++lineIndex]!;
        position = 0;
        continue;
      }
      field += line.slice(position, quote);
      const after = line[quote + 1];
      if (after === '"') {
        field += '"';
        position = quote + 2;
        continue;
      }
      if (after !== undefined && after !== ",") throw new CsvParseError(start + 1, lineIndex + 1, quote + 2, MISSING_QUOTE);
      record.push(field);
      if (after === undefined) return { record, next: lineIndex + 1 };
      position = quote + 2;
      break;
    }
  }
}
