/**
 * Large JSON lists written in pieces: the text is exactly JSON.stringify of the whole (plus the newline the
 * encoder adds), but it is produced a piece of about 256 KiB per turn (api/turns.ts) and only as the client
 * reads, so a list of thousands of objects neither holds the event loop nor sits in memory as one string.
 */
import { takeTurn } from "../api/turns.ts";

const PIECE_CHARS = 256 * 1024;
/** Stands in for the array while the envelope is serialized; a NUL cannot occur in list metadata or column definitions. */
const PLACEHOLDER = "\u0000kubun:streamed-array\u0000";

/** `envelope` with `field` set to `elements` mapped by `toElement`, as a stream of JSON text pieces. */
export function streamJsonWithArray<T>(
  envelope: object,
  field: string,
  elements: readonly T[],
  toElement: (element: T) => unknown,
): ReadableStream<Uint8Array> {
  const [head, tail] = JSON.stringify({ ...envelope, [field]: PLACEHOLDER }).split(JSON.stringify(PLACEHOLDER));
  const encoder = new TextEncoder();
  let next = 0;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        await takeTurn();
        let piece = next === 0 ? `${head}[` : "";
        while (next < elements.length && piece.length < PIECE_CHARS) {
          piece += `${next > 0 ? "," : ""}${JSON.stringify(toElement(elements[next]))}`;
          next++;
        }
        if (next < elements.length) {
          controller.enqueue(encoder.encode(piece));
          return;
        }
        controller.enqueue(encoder.encode(`${piece}]${tail}\n`));
        controller.close();
      },
    },
    { highWaterMark: 0 },
  );
}
