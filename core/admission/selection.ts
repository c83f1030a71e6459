/**
 * Which admission plugins run, in which order (kube's --enable/--disable-admission-plugins): the default set plus
 * the enabled names minus the disabled ones, always in the recommended order whatever the flags' order. Module
 * paths (custom plugins) run in flag order after the built-ins of the mutating phase, before the webhooks.
 * kube names kubun does not implement never run by default; enabling one fails at start-up unless the operator
 * accepts it as a no-op by name (--accept-unimplemented-admission-plugins); disabling one is always fine.
 */

export interface AdmissionPluginSet {
  /** Every built-in name in kube's recommended order. */
  order: readonly string[];
  /** Names on when no flag says otherwise (kube's defaults). */
  defaults: readonly string[];
  /** Names that come after custom plugins (the webhooks, ResourceQuota, AlwaysDeny). */
  last: readonly string[];
  /** kube names in `order` that kubun has no implementation of. */
  unimplemented: readonly string[];
}

export interface AdmissionFlagValues {
  /** Built-in names to enable. */
  enable: readonly string[];
  disable: readonly string[];
  /** Module paths of custom plugins, in flag order. */
  custom: readonly string[];
  /** Unimplemented names the operator accepts as no-ops when enabled. */
  acceptUnimplemented?: readonly string[];
}

/** The names to load, in chain order; unimplemented names the operator accepted are left out (they would do nothing). */
export function selectAdmissionPlugins(set: AdmissionPluginSet, flags: AdmissionFlagValues): string[] {
  checkNames(set, flags);
  const missing = new Set(set.unimplemented);
  const wanted = new Set([...set.defaults, ...flags.enable].filter((name) => !flags.disable.includes(name) && !missing.has(name)));
  const builtIns = set.order.filter((name) => wanted.has(name));
  const custom = [...new Set(flags.custom)];
  const lastSet = new Set(set.last);
  return [...builtIns.filter((name) => !lastSet.has(name)), ...custom, ...builtIns.filter((name) => lastSet.has(name))];
}

/** kube's AdmissionOptions.Validate messages, then kubun's refusal of enabled names it cannot honour. */
function checkNames(set: AdmissionPluginSet, flags: AdmissionFlagValues): void {
  const known = new Set(set.order);
  const errors: string[] = [];
  for (
    const [flag, names] of [["enable-admission-plugins", flags.enable], ["disable-admission-plugins", flags.disable], [
      "accept-unimplemented-admission-plugins",
      flags.acceptUnimplemented ?? [],
    ]] as const
  ) {
    for (const name of names) if (!known.has(name)) errors.push(`${flag} plugin "${name}" is unknown`);
  }
  const overlap = flags.enable.filter((name) => flags.disable.includes(name));
  if (overlap.length > 0) errors.push(`${overlap.join(",")} in enable-admission-plugins and disable-admission-plugins overlapped`);
  const accepted = new Set(flags.acceptUnimplemented ?? []);
  const refused = flags.enable.filter((name) => set.unimplemented.includes(name) && !accepted.has(name));
  for (const name of refused) {
    errors.push(
      `enable-admission-plugins plugin "${name}" is not implemented by kubun; drop it, or accept it as a no-op with --accept-unimplemented-admission-plugins=${name}`,
    );
  }
  if (errors.length > 0) throw new Error(errors.join("; "));
}
