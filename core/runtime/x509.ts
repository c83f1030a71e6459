/**
 * @peculiar/x509, loaded after a stand-in for the `reflect-metadata` polyfill: its tsyringe
 * dependency refuses to load without one although x509's injectable classes take no constructor
 * parameters. A dynamic import because Bun evaluates a CommonJS dependency before the importing
 * module's earlier side-effect imports.
 */
type MetadataReader = (key: unknown, target: unknown) => unknown;
const reflect = Reflect as typeof Reflect & { getMetadata?: MetadataReader; getOwnMetadata?: MetadataReader; defineMetadata?: () => void };
reflect.getMetadata ??= () => undefined;
reflect.getOwnMetadata ??= () => undefined;
reflect.defineMetadata ??= () => {};

export const x509 = await import("@peculiar/x509");
