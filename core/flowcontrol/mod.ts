/** API Priority and Fairness: kube's flowcontrol bootstrap objects, classification and queuing. */
export { type Admission, type AdmittedRequest, FlowControl, type FlowControlOptions, NON_MUTATING_VERBS } from "./controller.ts";
export type { Classification } from "./classifier.ts";
export type { RequestDetails } from "./debug.ts";
export type { RequestDigest } from "./matching.ts";
