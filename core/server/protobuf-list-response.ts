/**
 * A protobuf list answered as storage is read: the envelope's length prefix needs the items' total size before the
 * first byte, so a list of more than one batch is read twice at one revision, first encoding items only to add up
 * their sizes, then encoding them again as they are written. Memory stays at a batch; the encoding work doubles.
 */
import { Buffer } from "node:buffer";
import { protobufListParts } from "../api/protobuf/mod.ts";
import { takeTurn } from "../api/turns.ts";
import { type ListedItem, type ListEnd, listEnvelope, type ListQuery, readListBatches } from "../registry/list.ts";
import type { ResourceStore } from "../registry/store.ts";
import type { ListMetaOf } from "./list-response.ts";
import { type EncodeOptions, listBodyResponse } from "./respond.ts";

/** Items encoded per event-loop turn: protobuf encoding costs several times JSON's. */
const ENCODED_PER_TURN = 100;

export async function respondProtobufListRead(
  store: ResourceStore,
  query: ListQuery,
  options: EncodeOptions,
  listMetaOf: ListMetaOf,
): Promise<Response> {
  // An item's bytes do not depend on the list's metadata, which (a continue token) is known only at the end.
  const sizingParts = partsOf(store, query.revision, {}, listMetaOf);
  const sizing = readListBatches(store, query, true);
  let revision = query.revision;
  let end: ListEnd = {};
  let itemBytes = 0;
  // A page with a limit (bounded by it) or a list of one batch keeps its encoded items and is not read again.
  let kept: Uint8Array[] | undefined = [];
  for (let batches = 1, next = await sizing.next();; batches++, next = await sizing.next()) {
    if (next.done) {
      end = next.value;
      break;
    }
    revision = next.value.revision;
    if (query.limit === 0 && batches > 1) kept = undefined;
    for (const [i, item] of next.value.items.entries()) {
      if (i > 0 && i % ENCODED_PER_TURN === 0) await takeTurn();
      const bytes = sizingParts.item(item.object!);
      itemBytes += bytes.length;
      kept?.push(bytes);
    }
  }
  const listParts = partsOf(store, revision, end, listMetaOf);
  if (kept) return listBodyResponse(Buffer.concat([listParts.head(itemBytes), ...kept, listParts.tail]), options);
  const writing = readListBatches(store, { ...query, revision }, true);
  let started = false;
  let pending: ListedItem[] = [];
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!started) {
        started = true;
        controller.enqueue(listParts.head(itemBytes));
        return;
      }
      if (pending.length > 0) await takeTurn();
      else {
        const next = await writing.next();
        if (next.done) {
          controller.enqueue(listParts.tail);
          controller.close();
          return;
        }
        pending = next.value.items;
      }
      for (const item of pending.splice(0, ENCODED_PER_TURN)) controller.enqueue(listParts.item(item.object!));
    },
    async cancel() {
      await writing.return({});
    },
  }, { highWaterMark: 0 });
  return listBodyResponse(body, options);
}

function partsOf(store: ResourceStore, revision: number, end: ListEnd, listMetaOf: ListMetaOf) {
  const envelope = { ...listEnvelope(store, revision), metadata: listMetaOf(revision, end) };
  return protobufListParts(envelope as unknown as Record<string, unknown>, envelope.apiVersion, envelope.kind);
}
