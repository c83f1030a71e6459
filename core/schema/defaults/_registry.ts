/** The shape each group's defaults file exports: its group/version and one defaulter per kind. */
import type { KubeObject } from "../../api/types.ts";

/** Fills in kube's defaults in place. */
export type Defaulter = (obj: KubeObject) => void;

export interface KindDefaulters {
  group: string;
  version: string;
  kinds: Readonly<Record<string, Defaulter>>;
}
