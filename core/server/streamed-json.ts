/**
 * Large JSON lists written in pieces: the text is exactly JSON.stringify of the whole (plus the newline the
 * encoder adds), but it is produced one batch of elements per pull, and only as the client reads, so a list of
 * thousands of objects neither holds the event loop nor sits in memory as one string.
 */
import { takeTurn } from "../api/turns.ts";

/** Stands in for the array while the envelope is serialized; a NUL cannot occur in list metadata or column definitions. */
const PLACEHOLDER = "\u0000kubun:streamed-array\u0000";
/** Elements of an in-memory array written per pull. */
const ARRAY_BATCH = 500;

/** `envelope` with `field` set to the array whose elements' JSON texts `batches` yields, as a stream of JSON text pieces. */
export function streamJsonWithArray(
  envelope: object,
  field: string,
  batches: AsyncIterator<string[], unknown>,
): ReadableStream<Uint8Array> {
  const [head, tail] = JSON.stringify({ ...envelope, [field]: PLACEHOLDER }).split(JSON.stringify(PLACEHOLDER));
  const encoder = new TextEncoder();
  let started = false;
  let written = 0;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        let piece = started ? "" : `${head}[`;
        started = true;
        for (;;) {
          const next = await batches.next();
          if (next.done) {
            controller.enqueue(encoder.encode(`${piece}]${tail}\n`));
            controller.close();
            return;
          }
          if (next.value.length === 0) continue;
          piece += `${written > 0 ? "," : ""}${next.value.join(",")}`;
          written += next.value.length;
          controller.enqueue(encoder.encode(piece));
          return;
        }
      },
      async cancel() {
        await batches.return?.(undefined);
      },
    },
    { highWaterMark: 0 },
  );
}

/** An in-memory array's elements as JSON texts, ARRAY_BATCH per event-loop turn. */
export async function* arrayInBatches<T>(elements: readonly T[], toElement: (element: T) => unknown): AsyncGenerator<string[]> {
  for (let start = 0; start < elements.length; start += ARRAY_BATCH) {
    if (start > 0) await takeTurn();
    yield elements.slice(start, start + ARRAY_BATCH).map((element) => JSON.stringify(toElement(element)));
  }
}
