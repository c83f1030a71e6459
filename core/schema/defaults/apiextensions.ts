/** apiextensions.k8s.io/v1 defaults of CustomResourceDefinition (apiextensions-apiserver's v1 defaults.go). */
import type { KubeObject } from "../../api/types.ts";
import { defaultPointer, defaultString, ensureObject, isEmpty, objectAt, objectsAt } from "./_fields.ts";
import type { KindDefaulters } from "./_registry.ts";
import { defaultServiceReference } from "./_service-reference.ts";

function defaultCustomResourceDefinition(crd: KubeObject): void {
  const spec = objectAt(crd, "spec");
  if (!spec) return;
  const names = objectAt(spec, "names");
  if (names && typeof names.kind === "string") {
    defaultString(names, "singular", names.kind.toLowerCase());
    if (names.kind !== "") defaultString(names, "listKind", `${names.kind}List`);
  }
  defaultPointer(spec, "conversion", { strategy: "None" });
  defaultServiceReference(objectAt(objectAt(objectAt(objectAt(spec, "conversion"), "webhook"), "clientConfig"), "service"));
  // The storage version is recorded as stored from the start and whenever it changes (kube's CRD strategy
  // PrepareForCreate/PrepareForUpdate append it to status.storedVersions).
  const storage = objectsAt(spec, "versions").find((version) => version.storage === true);
  if (!storage) return;
  const stored = objectAt(crd, "status")?.storedVersions;
  if (isEmpty(stored)) {
    const status = ensureObject(crd, "status");
    if (status) status.storedVersions = [storage.name];
  } else if (Array.isArray(stored) && !stored.includes(storage.name)) {
    stored.push(storage.name);
  }
}

export const API_EXTENSIONS_DEFAULTERS: KindDefaulters = {
  group: "apiextensions.k8s.io",
  version: "v1",
  kinds: { CustomResourceDefinition: defaultCustomResourceDefinition },
};
