/**
 * Members of decoded JSON objects. An own "__proto__" member (JSON.parse makes one) is an ordinary key to kube's
 * decoders, which drop it as an unknown field; assigned with `object[key] = value` it would set the object's prototype
 * instead, and every field it holds would then read as the object's own.
 */

/** Sets `key` as an own member of `object`. */
export function setMember(object: Record<string, unknown>, key: string, value: unknown): void {
  if (key === "__proto__") Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
  else object[key] = value;
}

/** An own member's value; undefined for a key the object only inherits ("__proto__", "constructor", ...). */
export function ownMember(object: Record<string, unknown>, key: string): unknown {
  return Object.hasOwn(object, key) ? object[key] : undefined;
}
