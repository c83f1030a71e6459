/**
 * @peculiar/x509, loaded on first use (issuing a certificate, parsing a CertificateSigningRequest): ~2 MB of an idle
 * server's memory that a restart on existing certificates never needs (bench/profiles/memory.md; lazy-module.ts).
 * Its tsyringe dependency refuses to load without the `reflect-metadata` polyfill, although x509's injectable
 * classes take no constructor parameters: a stand-in is installed first.
 */
import type * as X509 from "@peculiar/x509";
import { lazyEntryPoint } from "./lazy-module.ts";

type MetadataReader = (key: unknown, target: unknown) => unknown;

const loadX509 = lazyEntryPoint<typeof X509>("core/runtime/_x509-entry.ts", import.meta.url, "./_x509-entry.ts");

export function x509(): typeof X509 {
  const reflect = Reflect as typeof Reflect & {
    getMetadata?: MetadataReader;
    getOwnMetadata?: MetadataReader;
    defineMetadata?: () => void;
  };
  reflect.getMetadata ??= () => undefined;
  reflect.getOwnMetadata ??= () => undefined;
  reflect.defineMetadata ??= () => {};
  return loadX509();
}
