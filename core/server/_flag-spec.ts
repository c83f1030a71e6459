/** One flag of the command line: its name, --help section, ServerConfig field, type, default and usage. */
import type { FlagType } from "./flag-types.ts";
import type { ServerConfig } from "../config/mod.ts";

export interface FlagSpec<K extends keyof ServerConfig = keyof ServerConfig> {
  name: string;
  section: string;
  key: K;
  type: FlagType<ServerConfig[K]>;
  defaultValue: ServerConfig[K];
  usage: string;
  shorthand?: string;
  /** Left out of --help (test aids). */
  hidden?: boolean;
}

export function defineFlag<K extends keyof ServerConfig>(spec: FlagSpec<K>): FlagSpec {
  return spec as unknown as FlagSpec;
}
