import { expect, test } from "bun:test";
import { parseAdmissionTestArgs, resultTable } from "./admission-test-command.ts";
import { parseSdkArgs } from "./sdk-init-command.ts";

test("admission test takes a plugin path and --fixtures in either spelling; anything else is an error", () => {
  expect(parseAdmissionTestArgs(["test", "p.ts", "--fixtures", "f"])).toEqual({ help: false, plugin: "p.ts", fixtures: "f" });
  expect(parseAdmissionTestArgs(["test", "--fixtures=f", "p.ts"])).toEqual({ help: false, plugin: "p.ts", fixtures: "f" });
  expect(parseAdmissionTestArgs([]).help).toBe(true);
  expect(() => parseAdmissionTestArgs(["test", "p.ts"])).toThrow("admission test needs --fixtures DIR");
  expect(() => parseAdmissionTestArgs(["test", "p.ts", "q.ts", "--fixtures", "f"])).toThrow("unexpected argument: q.ts");
  expect(() => parseAdmissionTestArgs(["verify"])).toThrow('unknown command "admission verify"');
});

test("sdk takes init and one directory", () => {
  expect(parseSdkArgs(["init", "dir"])).toEqual({ help: false, dir: "dir" });
  expect(() => parseSdkArgs(["init"])).toThrow("sdk init needs exactly one directory");
  expect(() => parseSdkArgs(["new", "dir"])).toThrow('unknown command "sdk new"');
});

test("the result table aligns FIXTURE, RESULT and REASON columns", () => {
  expect(resultTable([{ fixture: "a long name", passed: true, reason: "allowed" }, { fixture: "b", passed: false, reason: "want x" }]))
    .toBe("FIXTURE       RESULT   REASON\na long name   PASS     allowed\nb             FAIL     want x\n");
});
