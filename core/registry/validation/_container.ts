/** One container's rules (kube's validateContainers): name, image, ports, resources and the enumerated policies. */
import type { FieldError } from "../../api/errors.ts";
import { isDNS1123Label, isQualifiedName } from "../../api/names.ts";
import { duplicate, invalid, invalidEach, list, notSupported, record, required, text } from "./_field.ts";
import { isValidPortName, isValidPortNum } from "./_ports.ts";
import { compareQuantities, parseQuantity, ZERO_QUANTITY } from "../../api/quantity.ts";

export const PORT_PROTOCOLS = ["SCTP", "TCP", "UDP"];
const PULL_POLICIES = ["Always", "IfNotPresent", "Never"];
const STANDARD_CONTAINER_RESOURCES = new Set(["cpu", "memory", "ephemeral-storage"]);

function validatePorts(ports: unknown, path: string): FieldError[] {
  const errors: FieldError[] = [];
  const names = new Set<string>();
  list(ports).forEach((raw, i) => {
    const port = record(raw);
    const at = `${path}[${i}]`;
    const name = text(port.name);
    if (name) {
      errors.push(...invalidEach(`${at}.name`, name, isValidPortName(name)));
      if (names.has(name)) errors.push(duplicate(`${at}.name`, name));
      names.add(name);
    }
    if (!port.containerPort) errors.push(required(`${at}.containerPort`));
    else errors.push(...invalidEach(`${at}.containerPort`, port.containerPort, isValidPortNum(Number(port.containerPort))));
    if (port.hostPort) errors.push(...invalidEach(`${at}.hostPort`, port.hostPort, isValidPortNum(Number(port.hostPort))));
    if (port.protocol && !PORT_PROTOCOLS.includes(text(port.protocol))) {
      errors.push(notSupported(`${at}.protocol`, port.protocol, PORT_PROTOCOLS));
    }
  });
  return errors;
}

function validateResourceName(name: string, path: string): FieldError[] {
  const errors = invalidEach(path, name, isQualifiedName(name));
  if (errors.length > 0 || name.includes("/")) return errors;
  if (STANDARD_CONTAINER_RESOURCES.has(name) || name.startsWith("hugepages-")) return [];
  return [invalid(path, name, "must be a standard resource for containers")];
}

function validateResources(resources: unknown, path: string): FieldError[] {
  const { limits, requests } = record(resources);
  const errors: FieldError[] = [];
  for (const [kind, quantities] of [["limits", limits], ["requests", requests]] as const) {
    for (const [name, quantity] of Object.entries(record(quantities))) {
      const at = `${path}.${kind}[${name}]`;
      errors.push(...validateResourceName(name, at));
      if (compareQuantities(parseQuantity(quantity) ?? ZERO_QUANTITY, ZERO_QUANTITY) < 0) {
        errors.push(invalid(at, quantity, "must be greater than or equal to 0"));
      }
    }
  }
  for (const [name, quantity] of Object.entries(record(requests))) {
    const limit = parseQuantity(record(limits)[name]);
    const request = parseQuantity(quantity);
    if (limit !== undefined && request !== undefined && compareQuantities(request, limit) > 0) {
      errors.push(invalid(`${path}.requests[${name}]`, quantity, `must be less than or equal to ${name} limit`));
    }
  }
  return errors;
}

/** Validates a list of containers; `names` collects names across regular and init containers, which must all differ. */
export function validateContainerList(containers: unknown, path: string, names: Set<string>): FieldError[] {
  const errors: FieldError[] = [];
  list(containers).forEach((raw, i) => {
    const c = record(raw);
    const at = `${path}[${i}]`;
    const name = text(c.name);
    if (!name) errors.push(required(`${at}.name`));
    else errors.push(...invalidEach(`${at}.name`, name, isDNS1123Label(name)));
    if (name && names.has(name)) errors.push(duplicate(`${at}.name`, name));
    names.add(name);
    const image = text(c.image);
    if (!image) errors.push(required(`${at}.image`));
    else if (image.trim() !== image) errors.push(invalid(`${at}.image`, image, "must not have leading or trailing whitespace"));
    errors.push(...validatePorts(c.ports, `${at}.ports`));
    if (c.imagePullPolicy && !PULL_POLICIES.includes(text(c.imagePullPolicy))) {
      errors.push(notSupported(`${at}.imagePullPolicy`, c.imagePullPolicy, PULL_POLICIES));
    }
    const messagePolicy = c.terminationMessagePolicy;
    if (messagePolicy && messagePolicy !== "File" && messagePolicy !== "FallbackToLogsOnError") {
      errors.push(invalid(`${at}.terminationMessagePolicy`, messagePolicy, "must be 'File' or 'FallbackToLogsOnError'"));
    }
    errors.push(...validateResources(c.resources, `${at}.resources`));
  });
  return errors;
}
