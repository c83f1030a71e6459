/**
 * ControllerRevisions (apps/v1), the template history of StatefulSets and DaemonSets (kube's
 * pkg/controller/history and the daemon controller's constructHistory). A revision stores the template as the
 * strategic merge patch `kubectl rollout undo` sends back: {"spec":{"template":{"$patch":"replace",...}}}.
 * Names are `<owner>-<hash>`, so a pass repeated after a crash finds the revision the last one made.
 */
import { isDeepStrictEqual } from "node:util";
import type { KubeObject } from "../../api/types.ts";
import { CONTROLLER_REVISIONS, type ControllerClient, type ResourceRef } from "./client.ts";
import { isControlledBy, newControllerRef, type PodTemplate } from "./owner.ts";
import { compareByteOrder } from "../../api/byte-order.ts";
import { templateWithGoZeroValues } from "./template-zeros.ts";

export const CONTROLLER_REVISION_HASH = "controller-revision-hash";
/** Room for "-" and a hash within a 253-character name (kube's ControllerRevisionName). */
const MAX_NAME_PREFIX = 223;

export function templateOf(owner: KubeObject): PodTemplate {
  return ((owner.spec as { template?: PodTemplate } | undefined)?.template) ?? {};
}

export function templatePatch(owner: KubeObject): Record<string, unknown> {
  return { spec: { template: { $patch: "replace", ...templateOf(owner) } } };
}

/** The pod template a revision holds. */
export function templateOfRevision(revision: KubeObject): PodTemplate {
  const data = (revision as { data?: { spec?: { template?: PodTemplate & { $patch?: string } } } }).data;
  const { $patch: _, ...template } = data?.spec?.template ?? {};
  return template;
}

export function revisionNumber(revision: KubeObject): number {
  return Number((revision as { revision?: number }).revision ?? 0);
}

export function byRevision(a: KubeObject, b: KubeObject): number {
  return revisionNumber(a) - revisionNumber(b) || compareByteOrder(String(a.metadata.name), String(b.metadata.name));
}

export function revisionName(ownerName: string, hash: string): string {
  return `${ownerName.slice(0, MAX_NAME_PREFIX)}-${hash}`;
}

/** A revision of the owner's current template, labelled like the template plus the hash, with the owner's annotations. */
export function newControllerRevision(owner: KubeObject, options: { hash: string; revision: number }): KubeObject {
  const metadata: KubeObject["metadata"] = {
    name: revisionName(String(owner.metadata.name), options.hash),
    namespace: owner.metadata.namespace,
    labels: { ...templateOf(owner).metadata?.labels, [CONTROLLER_REVISION_HASH]: options.hash },
    ownerReferences: [newControllerRef(owner)],
  };
  if (owner.metadata.annotations) metadata.annotations = { ...owner.metadata.annotations };
  return {
    apiVersion: "apps/v1",
    kind: "ControllerRevision",
    metadata,
    data: templatePatch(owner),
    revision: options.revision,
  } as KubeObject;
}

export function holdsTemplateOf(revision: KubeObject, owner: KubeObject): boolean {
  if (isDeepStrictEqual((revision as { data?: unknown }).data, templatePatch(owner))) return true;
  return isDeepStrictEqual(templateWithGoZeroValues(templateOfRevision(revision)), templateWithGoZeroValues(templateOf(owner)));
}

/** The oldest `excess` revisions that `isLive` does not protect (history pruning). */
export function oldestUnprotected(revisions: KubeObject[], excess: number, isLive: (revision: KubeObject) => boolean): KubeObject[] {
  if (excess <= 0) return [];
  return [...revisions].sort(byRevision).filter((r) => !isLive(r)).slice(0, excess);
}

export interface TemplateRevisions {
  /** The revision holding the owner's current template. */
  update: KubeObject;
  /** Every revision the owner controls, oldest first, `update` included. */
  all: KubeObject[];
}

/**
 * Makes the owner's current template the newest revision: an equal older revision is renumbered (an undo),
 * otherwise a new one is created. Answers undefined when another object holds the name; the owner's
 * status.collisionCount is then raised so the next pass hashes to a new name.
 */
export async function syncTemplateRevision(
  client: ControllerClient,
  ownerRef: ResourceRef,
  owner: KubeObject,
  options: { owned: KubeObject[]; hash: string },
): Promise<TemplateRevisions | undefined> {
  const all = [...options.owned].sort(byRevision);
  const latest = all.at(-1);
  const next = latest ? revisionNumber(latest) + 1 : 1;
  const equal = all.filter((r) => holdsTemplateOf(r, owner)).at(-1);
  if (equal && equal === latest) return { update: equal, all };
  if (equal) {
    const renumbered = await client.update(CONTROLLER_REVISIONS, { ...equal, revision: next } as KubeObject);
    return { update: renumbered, all: [...all.filter((r) => r !== equal), renumbered] };
  }
  const wanted = newControllerRevision(owner, { hash: options.hash, revision: next });
  const created = await client.create(CONTROLLER_REVISIONS, wanted) ??
    await client.get(CONTROLLER_REVISIONS, String(owner.metadata.namespace), String(wanted.metadata.name));
  if (created && isControlledBy(created, owner) && holdsTemplateOf(created, owner)) {
    return { update: created, all: [...all.filter((r) => r.metadata.name !== created.metadata.name), created] };
  }
  const status = (owner.status ?? {}) as { collisionCount?: number };
  await client.updateStatus(ownerRef, { ...owner, status: { ...status, collisionCount: (status.collisionCount ?? 0) + 1 } });
  return undefined;
}
