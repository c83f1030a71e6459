import { afterAll, beforeAll } from "bun:test";
import { storageContractSuite } from "../contract-suite.ts";
import { IDENTITY_LAYOUT, JSON_TEXT_CODEC } from "../layout.ts";
import { openEtcdStorage } from "./mod.ts";
import { startTestEtcd, type TestEtcd } from "./testing.ts";

let etcd: TestEtcd;
let stores = 0;

beforeAll(async () => {
  etcd = await startTestEtcd();
});
afterAll(async () => {
  await etcd?.stop();
});

// Each store gets a prefix of its own on the shared etcd, so it starts empty.
storageContractSuite("etcd", (options) =>
  openEtcdStorage({
    servers: [etcd.endpoint],
    prefix: `/contract-${++stores}`,
    compactionIntervalMs: 0,
    layout: IDENTITY_LAYOUT,
    codec: JSON_TEXT_CODEC,
    ...options,
  }));
