/**
 * Which admission plugins run, in which order (kube's --enable/--disable-admission-plugins): the default set plus
 * the enabled names minus the disabled ones, always in the recommended order whatever the flags' order. Module
 * paths (custom plugins) run in flag order after the built-ins of the mutating phase, before the webhooks.
 */

export interface AdmissionPluginSet {
  /** Every built-in name in kube's recommended order. */
  order: readonly string[];
  /** Names on when no flag says otherwise. */
  defaults: readonly string[];
  /** Names that come after custom plugins (the webhooks, ResourceQuota, AlwaysDeny). */
  last: readonly string[];
}

/** `enable` and `disable` hold built-in names; `custom` the module paths of custom plugins, in flag order. */
export function selectAdmissionPlugins(
  set: AdmissionPluginSet,
  flags: { enable: readonly string[]; disable: readonly string[]; custom: readonly string[] },
): string[] {
  const known = new Set(set.order);
  for (const name of [...flags.enable, ...flags.disable]) {
    if (!known.has(name)) {
      throw new Error(`admission plugin "${name}" is unknown; known: ${[...set.order].sort().join(", ")}`);
    }
  }
  const overlap = flags.enable.filter((name) => flags.disable.includes(name));
  if (overlap.length > 0) throw new Error(`${overlap.join(",")} in enable-admission-plugins and disable-admission-plugins overlapped`);
  const wanted = new Set([...set.defaults, ...flags.enable].filter((name) => !flags.disable.includes(name)));
  const builtIns = set.order.filter((name) => wanted.has(name));
  const custom = [...new Set(flags.custom)];
  const lastSet = new Set(set.last);
  return [...builtIns.filter((name) => !lastSet.has(name)), ...custom, ...builtIns.filter((name) => lastSet.has(name))];
}
