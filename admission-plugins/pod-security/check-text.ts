/** Wording helpers shared by the Pod Security checks, matching kube's pluralize/joinQuote. */
import type { Container } from "../_match.ts";

export interface Violation {
  reason: string;
  detail: string;
}

export const pluralize = (singular: string, plural: string, count: number) => (count === 1 ? singular : plural);
export const joinQuote = (values: string[]) => values.map((value) => JSON.stringify(value)).join(", ");
/** Sorted, deduplicated: kube's sets.NewString().List(). */
export const sortedSet = (values: string[]) => [...new Set(values)].sort();
/** `containers "a", "b"`. */
export const containersPhrase = (names: string[]) => `${pluralize("container", "containers", names.length)} ${joinQuote(names)}`;
/** `pod and container "a"`: who set a forbidden value, pod first. */
export const settersPhrase = (podSet: boolean, names: string[]) =>
  [...(podSet ? ["pod"] : []), ...(names.length ? [containersPhrase(names)] : [])].join(" and ");

export const securityContext = (holder: Container | Record<string, unknown>) => (holder.securityContext ?? {}) as Record<string, unknown>;
