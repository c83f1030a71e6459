/** For the tests of kinds served in one version: every other apiVersion is missing (its managers are dropped). */
import type { OwnershipScope } from "./scope.ts";
import type { TypeNode } from "./schema-type.ts";

export function oneVersionScope(apiVersion: string, hasStatusSubresource: boolean, type: TypeNode): OwnershipScope {
  return { apiVersion, hasStatusSubresource, type, converter: { convert: () => undefined } };
}
