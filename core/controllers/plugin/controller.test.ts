import { expect, test } from "bun:test";
import type { ServerConfig } from "../../config/mod.ts";
import { buildPluginControllers } from "./controller.ts";
import { defineControllerPlugin } from "./types.ts";

const config = {} as ServerConfig;
const named = (name: string) => defineControllerPlugin({ name, watches: [], reconcile: () => {} });

test("buildPluginControllers() makes one controller per plugin, named as the plugin", async () => {
  expect((await buildPluginControllers([named("labeller"), named("cleaner")], config)).map((c) => c.name)).toEqual(["labeller", "cleaner"]);
});

test("a plugin name that cannot name its service account stops start-up with isDNS1123Subdomain's message", async () => {
  await expect(buildPluginControllers([named("Bad_Name")], config)).rejects.toThrow(
    'controller plugin name "Bad_Name": a lowercase RFC 1123 subdomain must consist of',
  );
});

test("a plugin cannot take the name of a built-in loop or of another plugin", async () => {
  await expect(buildPluginControllers([named("namespace")], config)).rejects.toThrow('"namespace" is already used by another controller');
  await expect(buildPluginControllers([named("x"), named("x")], config)).rejects.toThrow('"x" is already used by another controller');
});
