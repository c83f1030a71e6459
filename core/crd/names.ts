/**
 * kube's CRD naming controller (apiextensions-apiserver pkg/controller/status): which of a CRD's names are free in
 * its group, given the names other CRDs have been granted and the built-in types of the group. A name in conflict
 * keeps what was accepted before; NamesAccepted and Established follow.
 */
import type { CRDCondition, CRDNames, CustomResourceDefinition } from "../registry/apiextensions/mod.ts";

/** Names already taken in a group: by other CRDs' accepted names and built-in types. */
export interface TakenNames {
  plurals: Set<string>;
  singulars: Set<string>;
  kinds: Set<string>;
  listKinds: Set<string>;
  shortNames: Set<string>;
}

export interface NamingResult {
  acceptedNames: CRDNames;
  namesAccepted: CRDCondition;
  established: CRDCondition;
}

export function emptyTakenNames(): TakenNames {
  return { plurals: new Set(), singulars: new Set(), kinds: new Set(), listKinds: new Set(), shortNames: new Set() };
}

/** Adds one holder's names to `taken`. */
export function takeNames(taken: TakenNames, names: Partial<CRDNames>): void {
  if (names.plural) taken.plurals.add(names.plural);
  if (names.singular) taken.singulars.add(names.singular);
  if (names.kind) taken.kinds.add(names.kind);
  if (names.listKind) taken.listKinds.add(names.listKind);
  for (const shortName of names.shortNames ?? []) taken.shortNames.add(shortName);
}

export function acceptNames(crd: CustomResourceDefinition, taken: TakenNames): NamingResult {
  const wanted = crd.spec.names;
  const previous: Partial<CRDNames> = crd.status?.acceptedNames ?? {};
  const singular = wanted.singular ?? wanted.kind.toLowerCase();
  const listKind = wanted.listKind ?? `${wanted.kind}List`;
  const conflicts: { reason: string; message: string }[] = [];
  const pick = (value: string, used: Set<string>, reason: string, old: string | undefined): string => {
    // A name may be both plural and singular of the same CRD; only other holders conflict.
    if (!used.has(value)) return value;
    conflicts.push({ reason, message: `"${value}" is already in use` });
    return old ?? "";
  };
  const plural = pick(wanted.plural, taken.plurals, "PluralConflict", previous.plural);
  const acceptedSingular = pick(singular, taken.singulars, "SingularConflict", previous.singular);
  const shortConflict = (wanted.shortNames ?? []).find((name) => taken.shortNames.has(name) || taken.plurals.has(name));
  if (shortConflict) conflicts.push({ reason: "ShortNamesConflict", message: `"${shortConflict}" is already in use` });
  const kind = pick(wanted.kind, taken.kinds, "KindConflict", previous.kind);
  const acceptedListKind = pick(listKind, taken.listKinds, "ListKindConflict", previous.listKind);
  const acceptedNames: CRDNames = {
    plural,
    singular: acceptedSingular,
    kind,
    listKind: acceptedListKind,
    ...(shortConflict
      ? previous.shortNames ? { shortNames: previous.shortNames } : {}
      : wanted.shortNames
      ? { shortNames: wanted.shortNames }
      : {}),
    ...(wanted.categories ? { categories: wanted.categories } : {}),
  };
  const namesAccepted: CRDCondition = conflicts.length === 0
    ? { type: "NamesAccepted", status: "True", reason: "NoConflicts", message: "no conflicts found" }
    : { type: "NamesAccepted", status: "False", reason: conflicts[0].reason, message: conflicts[0].message };
  const servable = acceptedNames.plural !== "" && acceptedNames.kind !== "";
  const established: CRDCondition = servable
    ? { type: "Established", status: "True", reason: "InitialNamesAccepted", message: "the initial names have been accepted" }
    : { type: "Established", status: "False", reason: "NotAccepted", message: "not all names are accepted" };
  return { acceptedNames, namesAccepted, established };
}
