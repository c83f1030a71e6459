/** The schema of kube's strategicpatch MergeItem test type, for the table-driven tests. */
import { createSchemaLookup } from "../../schema/lookup.ts";
import type { Schema } from "../../schema/types.ts";

const mergingListOf = (ref: string, strategy = "merge"): Schema => ({
  type: "array",
  items: { ref },
  "x-kubernetes-patch-strategy": strategy,
  "x-kubernetes-patch-merge-key": "name",
});

const common: Record<string, Schema> = {
  name: { type: "string" },
  value: { type: "string" },
  other: { type: "string" },
  simpleMap: { type: "object", additionalProperties: { type: "string" } },
  mergingList: mergingListOf("mergeItem"),
  nonMergingList: { type: "array", items: { ref: "mergeItem" } },
  mergingIntList: { type: "array", items: { type: "integer" }, "x-kubernetes-patch-strategy": "merge" },
};

export const mergeItemLookup = createSchemaLookup({
  mergeItem: {
    type: "object",
    properties: {
      ...common,
      nonMergingIntList: { type: "array", items: { type: "integer" } },
      replacingItem: { type: "object", "x-kubernetes-preserve-unknown-fields": true, "x-kubernetes-patch-strategy": "replace" },
      retainKeysMap: { ref: "retainKeysMergeItem", "x-kubernetes-patch-strategy": "retainKeys" },
      retainKeysMergingList: mergingListOf("mergeItem", "merge,retainKeys"),
    },
  },
  retainKeysMergeItem: { type: "object", properties: common },
});

export const mergeItemSchema: Schema = { ref: "mergeItem" };
