/**
 * A list answered as storage is read (issue 20, item 6): batches of keys are read at one revision, decoded only
 * when the form needs objects, and written before the next batch is read, so a list of any length holds one batch
 * in memory. Compact JSON of kinds stored as served is the stored text with its resourceVersion spliced in, never
 * parsed and re-serialized (issue 16). A list with a limit is read whole first (it is bounded by the limit) since
 * its continue token and remainingItemCount precede the items; protobuf is read twice (protobuf-list-response.ts);
 * YAML and indented JSON are written whole.
 */
import type { ListMeta } from "../api/types.ts";
import { storedListItemText, storedTextWithVersion } from "../registry/codec.ts";
import {
  itemTypeMetaOf,
  type ListedBatch,
  type ListedItem,
  type ListEnd,
  listEnvelope,
  listObjects,
  type ListQuery,
  readListBatches,
} from "../registry/list.ts";
import type { ResourceStore } from "../registry/store.ts";
import { type EncodeOptions, listBodyResponse, respondList, streamedListForm } from "./respond.ts";
import { respondProtobufListRead } from "./protobuf-list-response.ts";
import { streamJsonWithArray } from "./streamed-json.ts";

/** The list metadata of a read: resourceVersion, and the continue point when a limited list stopped early. */
export type ListMetaOf = (revision: number, end: ListEnd) => ListMeta;

export async function respondListRead(
  store: ResourceStore,
  query: ListQuery,
  options: EncodeOptions,
  listMetaOf: ListMetaOf,
): Promise<Response> {
  if (options.representation.format === "protobuf") return await respondProtobufListRead(store, query, options, listMetaOf);
  const itemTypeMeta = itemTypeMetaOf(store);
  const form = streamedListForm(listEnvelope(store, 0), options, itemTypeMeta);
  if (!form) {
    const page = await listObjects(store, query);
    const list = { ...page.list, metadata: listMetaOf(Number(page.list.metadata.resourceVersion), page) };
    return respondList(list, options, itemTypeMeta);
  }
  const splice = options.representation.format === "json" && !store.convertsOnRead;
  const batches = readListBatches(store, query, !splice);
  const read: ListedBatch[] = [];
  let end: ListEnd | undefined;
  // A limited list is read to its end; an unlimited one only far enough to know whether it is a single batch.
  while (end === undefined && (query.limit > 0 || read.length < 2)) {
    const next = await batches.next();
    if (next.done) end = next.value;
    else read.push(next.value);
  }
  const revision = read[0]!.revision;
  const envelope = { ...listEnvelope(store, revision), metadata: listMetaOf(revision, end ?? {}) };
  const { envelope: streamedEnvelope, field } = streamedListForm(envelope, options, itemTypeMeta)!;
  const storedText = itemTypeMeta === "kept" ? storedTextWithVersion : storedListItemText;
  const text = splice ? (item: ListedItem) => storedText(item.kv) : (item: ListedItem) => JSON.stringify(form.element(item.object!));
  const texts = elementTexts(read, end === undefined ? batches : undefined, text);
  const body = streamJsonWithArray(streamedEnvelope, field, texts);
  // When everything is in memory already, it is answered whole, with its length known.
  return listBodyResponse(end === undefined ? body : await new Response(body).arrayBuffer(), options);
}

/** The JSON texts of the batches read ahead, then of the batches still to read. */
async function* elementTexts(
  read: ListedBatch[],
  rest: AsyncGenerator<ListedBatch, ListEnd> | undefined,
  text: (item: ListedItem) => string,
): AsyncGenerator<string[]> {
  try {
    while (read.length > 0) yield read.shift()!.items.map(text);
    if (!rest) return;
    for (let next = await rest.next(); !next.done; next = await rest.next()) yield next.value.items.map(text);
  } finally {
    await rest?.return({});
  }
}
