/** AlwaysDeny: refuses every write (kube's test plugin). */
import { admissionForbidden } from "../../core/admission/errors.ts";
import type { BuiltInAdmissionFactory } from "../../core/admission/types.ts";

const alwaysDeny: BuiltInAdmissionFactory = () => ({
  name: "AlwaysDeny",
  admit(attributes) {
    throw admissionForbidden(attributes, "admission control is denying all modifications");
  },
});

export default alwaysDeny;
