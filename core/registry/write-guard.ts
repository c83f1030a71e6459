/**
 * Per-resource checks the generic store runs on every create and update, after validation and before the write
 * (dry runs included): RBAC escalation prevention today, admission tomorrow. A guard throws a StatusError to
 * refuse. Only the server's bootstrap writes (Registry.bootstrapWriter()) are not guarded.
 */
import type { KubeObject } from "../api/types.ts";
import type { UserInfo } from "../auth/user.ts";
import type { ResourceType } from "../api/resource-type.ts";

export interface WriteAttempt {
  operation: "create" | "update";
  user: UserInfo;
  type: ResourceType;
  namespace: string;
  object: KubeObject;
  /** The stored object an update replaces; null on create. */
  oldObject: KubeObject | null;
  dryRun: boolean;
}

export type WriteGuard = (attempt: WriteAttempt) => Promise<void>;

export class WriteGuards {
  readonly #guards = new Map<string, WriteGuard[]>();

  /** Adds a guard for `<group>/<resource>` (core group ""). */
  register(group: string, resource: string, guard: WriteGuard): void {
    const key = `${group}/${resource}`;
    this.#guards.set(key, [...(this.#guards.get(key) ?? []), guard]);
  }

  /** At once for a resource without guards. */
  check(attempt: WriteAttempt): void | Promise<void> {
    const guards = this.#guards.get(`${attempt.type.group}/${attempt.type.resource}`);
    if (guards && guards.length > 0) return checkAll(guards, attempt);
  }
}

async function checkAll(guards: readonly WriteGuard[], attempt: WriteAttempt): Promise<void> {
  for (const guard of guards) await guard(attempt);
}
