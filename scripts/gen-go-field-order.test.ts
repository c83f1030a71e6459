import { expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { API_DATA_DIR } from "./gen-protobuf.ts";
import { GO_FIELD_ORDER_MODULE_PATH, renderGoFieldOrderModule } from "./gen-go-field-order.ts";

test("the committed Go field order module is what the generator produces from ../shared now", () => {
  if (!existsSync(API_DATA_DIR)) {
    console.log(`gen-go-field-order: ${API_DATA_DIR} is absent, nothing to compare`);
    return;
  }
  expect(readFileSync(GO_FIELD_ORDER_MODULE_PATH, "utf8")).toBe(renderGoFieldOrderModule(API_DATA_DIR));
});
