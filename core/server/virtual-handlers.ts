/**
 * Handlers for virtual resources and subresources (spec 2.1: TokenReview, access reviews, serviceaccounts/token,
 * pods/binding, ...), which answer instead of the generic store. Keyed "<group>/<resource>" or
 * "<group>/<resource>/<subresource>", the core group being "".
 */
import type { Handler } from "./handlers/context.ts";

export type VirtualHandlers = ReadonlyMap<string, Handler>;

export function virtualHandlerKey(group: string, resource: string, subresource = ""): string {
  return subresource ? `${group}/${resource}/${subresource}` : `${group}/${resource}`;
}
