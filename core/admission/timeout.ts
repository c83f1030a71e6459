/** Bounds one plugin call: past the limit the request fails with a 504 while the call is left to finish. */
import { pluginTimeout } from "./errors.ts";

export async function withTimeout(run: () => Promise<void> | void, timeoutMs: number | undefined, pluginName: string): Promise<void> {
  if (!timeoutMs) return await run();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(pluginTimeout(pluginName, timeoutMs)),
      timeoutMs,
    );
  });
  try {
    await Promise.race([Promise.resolve().then(run), expired]);
  } finally {
    clearTimeout(timer);
  }
}
