/**
 * The Date header of an answer. Go's net/http (chunkWriter.writeHeader) sets `Date` to time.Now() in http.TimeFormat
 * ("Mon, 02 Jan 2006 15:04:05 GMT", whole seconds) when the handler set none. Every answer in one second carries the
 * same text, so it is formatted once per second instead of per answer (Bun's node:http formats it per answer).
 */
let formattedSecond = NaN;
let formatted = "";

/** `now` in milliseconds since the epoch; the text is that of its whole second. */
export function httpDate(now = Date.now()): string {
  const second = Math.floor(now / 1000);
  if (second !== formattedSecond) {
    formatted = new Date(second * 1000).toUTCString();
    formattedSecond = second;
  }
  return formatted;
}
