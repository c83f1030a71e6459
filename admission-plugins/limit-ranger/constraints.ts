/**
 * kube's LimitRange constraints (plugin/pkg/admission/limitranger): each compares one resource of a Container,
 * Pod or PersistentVolumeClaim with the enforced value and returns kube's error text, or nothing.
 */
import { approximateValue, compareQuantities, milliValue, quantityOrZero } from "../../core/api/quantity.ts";

export type Resources = Record<string, string>;

/** Exact comparison of two quantity texts (kube's Quantity.Cmp). */
const cmp = (a: string | undefined, b: string | undefined) => compareQuantities(quantityOrZero(a), quantityOrZero(b));

export function minConstraint(
  limitType: string,
  name: string,
  enforced: string,
  requests: Resources,
  limits: Resources,
): string | undefined {
  if (requests[name] === undefined) return `minimum ${name} usage per ${limitType} is ${enforced}.  No request is specified`;
  if (cmp(requests[name], enforced) < 0) return `minimum ${name} usage per ${limitType} is ${enforced}, but request is ${requests[name]}`;
  if (limits[name] !== undefined && cmp(limits[name], enforced) < 0) {
    return `minimum ${name} usage per ${limitType} is ${enforced}, but limit is ${limits[name]}`;
  }
}

export function maxConstraint(
  limitType: string,
  name: string,
  enforced: string,
  requests: Resources,
  limits: Resources,
): string | undefined {
  if (limits[name] === undefined) return `maximum ${name} usage per ${limitType} is ${enforced}.  No limit is specified`;
  if (cmp(limits[name], enforced) > 0) return `maximum ${name} usage per ${limitType} is ${enforced}, but limit is ${limits[name]}`;
  if (requests[name] !== undefined && cmp(requests[name], enforced) > 0) {
    return `maximum ${name} usage per ${limitType} is ${enforced}, but request is ${requests[name]}`;
  }
}

/** The max for a PersistentVolumeClaim, whose limits are not user input: only the request counts. */
export function maxRequestConstraint(limitType: string, name: string, enforced: string, requests: Resources): string | undefined {
  if (requests[name] === undefined) return `maximum ${name} usage per ${limitType} is ${enforced}.  No request is specified`;
  if (cmp(requests[name], enforced) > 0) return `maximum ${name} usage per ${limitType} is ${enforced}, but request is ${requests[name]}`;
}

export function limitRequestRatioConstraint(
  limitType: string,
  name: string,
  enforced: string,
  requests: Resources,
  limits: Resources,
): string | undefined {
  // kube's limitRequestRatioConstraint works in milli-units and compares the ratio as a float.
  const request = milliValue(quantityOrZero(requests[name]));
  const limit = milliValue(quantityOrZero(limits[name]));
  const prefix = `${name} max limit to request ratio per ${limitType} is ${enforced}`;
  if (request <= 0) return `${prefix}, but no request is specified or request is 0`;
  if (limit <= 0) return `${prefix}, but no limit is specified or limit is 0`;
  const ratio = limit / request;
  // kube prints the ratio with Go's %f: six decimals.
  if (ratio > approximateValue(quantityOrZero(enforced))) return `${prefix}, but provided ratio is ${ratio.toFixed(6)}`;
}
