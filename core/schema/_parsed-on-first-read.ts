/**
 * The built-in definitions as JSON texts, each parsed at its first read. A server reads a few dozen of kube's ~500
 * definitions until a client asks for OpenAPI or writes other kinds (an idle one 24); the ~8,000 objects of all of
 * them (0.6 MB of heap) and the object literal's bytecode were otherwise built at every start
 * (bench/profiles/memory.md, ninth session).
 */
import type { Definitions, Schema } from "./types.ts";

/**
 * Listing the names (Object.keys, `in`, Object.hasOwn) parses nothing; reading a value parses that definition once,
 * and later reads get the same object. Copies (Object.assign, spread, Object.entries) read, so parse, every value.
 */
export function parsedOnFirstRead(texts: ReadonlyMap<string, string>): Definitions {
  const definitions: Record<string, Schema> = {};
  for (const [name, text] of texts) {
    Object.defineProperty(definitions, name, {
      enumerable: true,
      configurable: true,
      get(): Schema {
        const schema = JSON.parse(text) as Schema;
        Object.defineProperty(definitions, name, { value: schema, enumerable: true, writable: false, configurable: false });
        return schema;
      },
    });
  }
  return definitions;
}
