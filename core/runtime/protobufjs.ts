/**
 * protobufjs/light, loaded on first use (the first protobuf message, the first /openapi/v2 in protobuf, KMS): a server
 * no client speaks protobuf to never loads it (bench/profiles/memory.md; lazy-module.ts).
 */
import type protobuf from "protobufjs/light.js";
import { lazyModule } from "./lazy-module.ts";

export const protobufjs = lazyModule<typeof protobuf>(() => require("protobufjs/light.js"), import.meta.url, "protobufjs/light.js");
