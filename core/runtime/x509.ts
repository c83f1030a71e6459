/**
 * @peculiar/x509, loaded on first use (issuing a certificate, parsing a CertificateSigningRequest): ~2 MB of an idle
 * server's memory that a restart on existing certificates never needs (bench/profiles/memory.md). Bun's bundler
 * turns the literal require into the bundled module's initializer; Deno has no require in ES modules, so
 * createRequire loads it there. Its tsyringe dependency refuses to load without the `reflect-metadata` polyfill,
 * although x509's injectable classes take no constructor parameters: a stand-in is installed first.
 */
import { createRequire } from "node:module";
import type * as X509 from "@peculiar/x509";

type MetadataReader = (key: unknown, target: unknown) => unknown;

let loaded: typeof X509 | undefined;

export function x509(): typeof X509 {
  if (loaded) return loaded;
  const reflect = Reflect as typeof Reflect & {
    getMetadata?: MetadataReader;
    getOwnMetadata?: MetadataReader;
    defineMetadata?: () => void;
  };
  reflect.getMetadata ??= () => undefined;
  reflect.getOwnMetadata ??= () => undefined;
  reflect.defineMetadata ??= () => {};
  return loaded = typeof require === "function" ? require("@peculiar/x509") : createRequire(import.meta.url)("@peculiar/x509");
}
