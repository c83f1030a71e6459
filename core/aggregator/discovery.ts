/**
 * /apis and /apis/<group> with the service-backed APIServices merged in (kube-aggregator's apisHandler): every
 * APIService is listed whether or not it is available; a remote group/version replaces a local one of the same name.
 */
import type { Catalog } from "../registry/catalog.ts";
import { type GroupVersionEntry, orderGroups } from "../registry/group-priority.ts";
import { type APIGroup, type APIGroupList, discoveryGroup } from "../registry/discovery.ts";

function mergedGroups(catalog: Catalog, remote: GroupVersionEntry[]) {
  const remoteKeys = new Set(remote.map((entry) => `${entry.group}/${entry.version}`));
  const local = catalog.groupVersions().filter((entry) => !remoteKeys.has(`${entry.group}/${entry.version}`));
  return orderGroups([...local, ...remote]);
}

export function aggregatedGroupList(catalog: Catalog, remote: GroupVersionEntry[]): APIGroupList {
  return { kind: "APIGroupList", apiVersion: "v1", groups: mergedGroups(catalog, remote).map(discoveryGroup) };
}

export function aggregatedGroup(
  catalog: Catalog,
  remote: GroupVersionEntry[],
  name: string,
): (APIGroup & { kind: "APIGroup"; apiVersion: "v1" }) | undefined {
  const found = mergedGroups(catalog, remote).find((group) => group.name === name);
  return found && { kind: "APIGroup", apiVersion: "v1", ...discoveryGroup(found) };
}
