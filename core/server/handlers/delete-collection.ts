/**
 * DELETE of a collection: every selected object is deleted as a single DELETE would; the answer is the list as
 * it was read before (kube's Store.DeleteCollection returns its listObj).
 */
import { isNotFound } from "../../api/errors.ts";
import { parseListOptions } from "../../api/list-options.ts";
import { respondList } from "../respond.ts";
import type { HandlerContext } from "./context.ts";
import { readDeleteOptions } from "./delete-options.ts";
import { readPage } from "./list.ts";
import { itemTypeMetaOf } from "../../registry/list.ts";
import { newNamespaceParameterRequired } from "../resource-route.ts";

export async function handleDeleteCollection(ctx: HandlerContext): Promise<Response> {
  const deleteOptions = await readDeleteOptions(ctx);
  const listOptions = { ...parseListOptions(ctx.url.searchParams), limit: 0, continue: "" };
  const { list } = await readPage(ctx, listOptions);
  // Store.DeleteCollection deletes each listed name in the request's namespace: under an empty namespace segment
  // (namespaces//configmaps) the list spans every namespace and the first Delete's NamespaceKeyFunc refuses "".
  const namespace = ctx.info.namespace;
  if (ctx.type.namespaced && namespace === "" && list.items.length > 0) throw newNamespaceParameterRequired();
  for (const item of list.items) {
    try {
      await ctx.store.delete(namespace, item.metadata.name as string, deleteOptions);
    } catch (e) {
      // Deleted by someone else meanwhile: that is what was asked for.
      if (!isNotFound(e)) throw e;
    }
  }
  return respondList(list, ctx.encode, itemTypeMetaOf(ctx.store));
}
