/**
 * Delete propagation (kube's registry deletionFinalizersForGarbageCollection): an Orphan delete leaves the
 * `orphan` finalizer for the garbage collector, a Foreground one `foregroundDeletion`, a Background one
 * neither. Without a policy in the request, finalizers already on the object decide, then the kind's default
 * (its strategy's DefaultGarbageCollectionPolicy, see Strategy.defaultPropagation).
 */

export type PropagationPolicy = "Foreground" | "Background" | "Orphan";

export const ORPHAN_FINALIZER = "orphan";
export const FOREGROUND_FINALIZER = "foregroundDeletion";

function effectivePolicy(
  kindDefault: PropagationPolicy,
  finalizers: string[],
  requested: PropagationPolicy | undefined,
): PropagationPolicy {
  if (requested) return requested;
  if (finalizers.includes(ORPHAN_FINALIZER)) return "Orphan";
  if (finalizers.includes(FOREGROUND_FINALIZER)) return "Foreground";
  return kindDefault;
}

/** The finalizers the object should carry once the delete is accepted, or undefined when they stay as they are. */
export function finalizersAfterDelete(
  kindDefault: PropagationPolicy,
  finalizers: string[],
  requested: PropagationPolicy | undefined,
): string[] | undefined {
  const policy = effectivePolicy(kindDefault, finalizers, requested);
  const next = finalizers.filter((f) => f !== ORPHAN_FINALIZER && f !== FOREGROUND_FINALIZER);
  if (policy === "Orphan") next.push(ORPHAN_FINALIZER);
  if (policy === "Foreground") next.push(FOREGROUND_FINALIZER);
  const same = next.length === finalizers.length && next.every((f) => finalizers.includes(f));
  return same ? undefined : next;
}
