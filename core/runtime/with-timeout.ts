/** A promise that fails once `timeoutMs` passes, worded as a Go context that ran out (what a call past its deadline reports). */
export function withTimeout<T>(work: Promise<T>, timeoutMs: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error("context deadline exceeded")), timeoutMs);
  });
  return Promise.race([work, expired]).finally(() => clearTimeout(timer));
}
