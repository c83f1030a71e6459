import { expect, test } from "bun:test";
import { workerEntryUrl } from "./worker-entry.ts";

test("from source the worker entry is resolved beside its importer", () => {
  expect(workerEntryUrl("file:///repo/core/admission/isolation/pool.ts", "./worker.ts", "core/admission/isolation/worker.ts"))
    .toBe("file:///repo/core/admission/isolation/worker.ts");
});

test("in a compiled executable the worker entry is the build's extra entry point under /$bunfs/root", () => {
  expect(workerEntryUrl("file:///$bunfs/root/kubun", "./worker.ts", "core/admission/isolation/worker.ts"))
    .toBe("/$bunfs/root/core/admission/isolation/worker.ts");
});
