/**
 * NamespaceLifecycle: nothing is created in a missing or terminating namespace, and the system namespaces
 * default, kube-system and kube-public cannot be deleted (kube's plugin/pkg/admission/namespace/lifecycle).
 */
import { admissionForbidden } from "../../core/admission/errors.ts";
import type { BuiltInAdmissionFactory } from "../../core/admission/types.ts";
import { isWriteTo } from "../_match.ts";

const IMMORTAL_NAMESPACES = new Set(["default", "kube-system", "kube-public"]);

const namespaceLifecycle: BuiltInAdmissionFactory = ({ registry, catalog }) => ({
  name: "NamespaceLifecycle",
  admit(attributes) {
    if (isWriteTo(attributes, "", "namespaces", ["DELETE"]) && IMMORTAL_NAMESPACES.has(attributes.name)) {
      throw admissionForbidden(attributes, "this namespace may not be deleted");
    }
    if (attributes.operation !== "CREATE" || attributes.namespace === "") return;
    const type = catalog.byGroupVersionResource(attributes.resource.group, attributes.resource.version, attributes.resource.resource);
    if (type?.namespaced) return registry.checkNamespaceOpen(attributes.namespace, type, attributes.name);
  },
});

export default namespaceLifecycle;
