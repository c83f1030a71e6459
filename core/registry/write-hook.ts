/**
 * Per-resource steps the generic store runs on every create and update, the server's own writes included, after
 * validation and just before the write (kube's BeginCreate/BeginUpdate): they may fill in the object (Service
 * cluster IPs and node ports) and reserve what they handed out. The returned function undoes the reservation and
 * is called when the write does not happen (dry run, conflict, failure). Hooks may be async (a reservation can be a
 * storage write of its own); a dry run must reserve nothing durable.
 */
import type { KubeObject } from "../api/types.ts";
import type { ResourceType } from "../api/resource-type.ts";

export interface HookedWrite {
  operation: "create" | "update";
  type: ResourceType;
  namespace: string;
  /** The object about to be written; hooks may change it. */
  object: KubeObject;
  oldObject: KubeObject | null;
  dryRun: boolean;
}

export type UndoReservation = () => void;
export type WriteHook = (write: HookedWrite) => UndoReservation | void | Promise<UndoReservation | void>;

export class WriteHooks {
  readonly #hooks = new Map<string, WriteHook[]>();

  /** Adds a hook for `<group>/<resource>` (core group ""); the returned function removes it. */
  register(group: string, resource: string, hook: WriteHook): () => void {
    const key = `${group}/${resource}`;
    this.#hooks.set(key, [...(this.#hooks.get(key) ?? []), hook]);
    return () => this.#hooks.set(key, (this.#hooks.get(key) ?? []).filter((h) => h !== hook));
  }

  /** Runs the hooks in order; if one throws, those before it are undone. At once for a resource without hooks. */
  run(write: HookedWrite): UndoReservation | Promise<UndoReservation> {
    const hooks = this.#hooks.get(`${write.type.group}/${write.type.resource}`);
    return hooks && hooks.length > 0 ? runHooks(hooks, write) : undoNothing;
  }
}

function undoNothing(): void {}

async function runHooks(hooks: readonly WriteHook[], write: HookedWrite): Promise<UndoReservation> {
  const undos: UndoReservation[] = [];
  const undoAll = () => {
    for (const undo of undos.reverse()) undo();
  };
  try {
    for (const hook of hooks) {
      const undo = await hook(write);
      if (undo) undos.push(undo);
    }
  } catch (error) {
    undoAll();
    throw error;
  }
  return undoAll;
}
