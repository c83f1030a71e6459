/**
 * Writes testdata/<name>.pb from the field trees in fixtures.ts (run from the repository root:
 * `node_modules/.bin/bun core/storage/kube-layout/testdata/write-fixtures.ts`). The JSON values, <name>.json, are
 * written by hand (README.md); the tests compare the codec's output with both.
 */
import { writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { FIXTURES } from "./fixtures.ts";

for (const fixture of FIXTURES) {
  if (fixture.protobuf) writeFileSync(join(dirname(fileURLToPath(import.meta.url)), `${fixture.name}.pb`), fixture.protobuf);
}
