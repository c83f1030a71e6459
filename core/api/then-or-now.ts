/**
 * A step that waits only when what it follows does: `next(value)` at once when `value` is at hand, after it when it
 * is a promise. Lets a request's path stay free of promises (and their async frames) wherever nothing waits.
 */
export function thenOrNow<T, R>(value: T | Promise<T>, next: (value: T) => R | Promise<R>): R | Promise<R> {
  return value instanceof Promise ? value.then(next) : next(value);
}
