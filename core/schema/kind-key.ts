/** How a kind index names a kind: lookup.ts's index and builtin.gen.ts's BUILT_IN_KINDS. */
export function kindKey(group: string, version: string, kind: string): string {
  return `${group}/${version}/${kind}`;
}
