/** v1 Service (kube's ValidateService and the cluster IP rule of ValidateServiceUpdate). Spec 2.12. */
import type { FieldError } from "../../api/errors.ts";
import type { KubeObject } from "../../api/types.ts";
import { isDNS1123Label, isDNS1123Subdomain, isQualifiedName } from "../../api/names.ts";
import { goStringSlice } from "../../api/go-text.ts";
import { duplicate, forbidden, invalid, invalidEach, isSet, list, notSupported, type Obj, record, required, text } from "./_field.ts";
import { PORT_PROTOCOLS } from "./_container.ts";
import { isValidPortNum, validatePortNumOrName } from "./_ports.ts";

const SERVICE_TYPES = ["ClusterIP", "ExternalName", "LoadBalancer", "NodePort"];
const AFFINITIES = ["ClientIP", "None"];
const TRAFFIC_POLICIES = ["Cluster", "Local"];
const MAX_AFFINITY_SECONDS = 86400;
const IP_ERROR = "must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)";

/** kube's strategy mirrors clusterIP into clusterIPs; read them the same way. */
function clusterIPsOf(spec: Obj): string[] {
  const ips = list(spec.clusterIPs).map(String);
  if (ips.length > 0) return ips;
  return text(spec.clusterIP) ? [text(spec.clusterIP)] : [];
}

function isIP(value: string): boolean {
  if (/^(\d{1,3})(\.\d{1,3}){3}$/.test(value)) return value.split(".").every((o) => Number(o) <= 255 && (o === "0" || !o.startsWith("0")));
  if (!value.includes(":") || !/^[0-9a-fA-F:.]+$/.test(value)) return false;
  try {
    new URL(`http://[${value}]/`);
    return true;
  } catch {
    return false;
  }
}

function validatePort(port: Obj, path: string, requireName: boolean, names: Set<string>): FieldError[] {
  const errors: FieldError[] = [];
  const name = text(port.name);
  if (requireName && !name) errors.push(required(`${path}.name`));
  else if (name) {
    errors.push(...invalidEach(`${path}.name`, name, isDNS1123Label(name)));
    if (names.has(name)) errors.push(duplicate(`${path}.name`, name));
    names.add(name);
  }
  errors.push(...invalidEach(`${path}.port`, port.port ?? 0, isValidPortNum(Number(port.port ?? 0))));
  if (isSet(port.protocol) && !PORT_PROTOCOLS.includes(text(port.protocol))) {
    errors.push(notSupported(`${path}.protocol`, port.protocol, PORT_PROTOCOLS));
  }
  errors.push(...validatePortNumOrName(port.targetPort, `${path}.targetPort`));
  if (isSet(port.appProtocol)) {
    errors.push(...invalidEach(`${path}.appProtocol`, port.appProtocol, isQualifiedName(text(port.appProtocol))));
  }
  return errors;
}

function validatePorts(spec: Obj, type: string, headless: boolean): FieldError[] {
  const ports = list(spec.ports).map(record);
  const errors: FieldError[] = [];
  if (ports.length === 0 && !headless && type !== "ExternalName") errors.push(required("spec.ports"));
  const names = new Set<string>();
  ports.forEach((port, i) => errors.push(...validatePort(port, `spec.ports[${i}]`, ports.length > 1, names)));
  const exposesNodePorts = type === "NodePort" || type === "LoadBalancer";
  const seenNodePorts = new Set<string>();
  const seenPorts = new Set<string>();
  ports.forEach((port, i) => {
    const protocol = text(port.protocol) || "TCP";
    if (port.nodePort && !exposesNodePorts) {
      errors.push(forbidden(`spec.ports[${i}].nodePort`, `may not be used when \`type\` is '${type}'`));
    } else if (port.nodePort) {
      errors.push(...invalidEach(`spec.ports[${i}].nodePort`, port.nodePort, isValidPortNum(Number(port.nodePort))));
      if (seenNodePorts.has(`${protocol}/${port.nodePort}`)) errors.push(duplicate(`spec.ports[${i}].nodePort`, port.nodePort));
      seenNodePorts.add(`${protocol}/${port.nodePort}`);
    }
    const key = `${protocol}/${port.port}`;
    if (seenPorts.has(key)) {
      errors.push(
        duplicate(
          `spec.ports[${i}]`,
          { protocol, port: port.port },
          `core.ServicePort{Name:"", Protocol:"${protocol}", AppProtocol:(*string)(nil), Port:${port.port}, TargetPort:intstr.IntOrString{Type:0, IntVal:0, StrVal:""}, NodePort:0}`,
        ),
      );
    }
    seenPorts.add(key);
  });
  return errors;
}

function validateTypeRules(spec: Obj, type: string, ips: string[]): FieldError[] {
  const errors: FieldError[] = [];
  if ((type === "LoadBalancer" || type === "NodePort") && ips[0] === "None") {
    errors.push(invalid("spec.clusterIPs[0]", "None", `may not be set to 'None' for ${type} services`));
  }
  if (type !== "ExternalName") {
    ips.forEach((ip, i) => {
      if (!(ip === "None" && i === 0 && ips.length === 1) && !isIP(ip)) errors.push(invalid(`spec.clusterIPs[${i}]`, ip, IP_ERROR));
    });
    return errors;
  }
  if (ips.length > 0) errors.push(forbidden("spec.clusterIPs", "may not be set for ExternalName services"));
  if (list(spec.ipFamilies).length > 0) errors.push(forbidden("spec.ipFamilies", "may not be set for ExternalName services"));
  if (isSet(spec.ipFamilyPolicy)) errors.push(forbidden("spec.ipFamilyPolicy", "may not be set for ExternalName services"));
  const cname = text(spec.externalName).replace(/\.$/, "");
  if (cname) errors.push(...invalidEach("spec.externalName", cname, isDNS1123Subdomain(cname)));
  else errors.push(required("spec.externalName"));
  return errors;
}

function validateAffinity(spec: Obj): FieldError[] {
  const affinity = text(spec.sessionAffinity);
  if (affinity && !AFFINITIES.includes(affinity)) return [notSupported("spec.sessionAffinity", affinity, AFFINITIES)];
  const config = spec.sessionAffinityConfig;
  if (affinity !== "ClientIP") {
    return affinity === "None" && isSet(config)
      ? [invalid("spec.sessionAffinityConfig", config, "must not be set when session affinity is None")]
      : [];
  }
  const timeout = record(record(config).clientIP).timeoutSeconds;
  if (typeof timeout !== "number") return [];
  const path = "spec.sessionAffinityConfig.clientIP.timeoutSeconds";
  return timeout <= 0 || timeout > MAX_AFFINITY_SECONDS
    ? [invalid(path, timeout, `must be greater than 0 and less than ${MAX_AFFINITY_SECONDS}`)]
    : [];
}

function validateTrafficPolicies(spec: Obj, type: string): FieldError[] {
  const errors: FieldError[] = [];
  const external = spec.externalTrafficPolicy;
  const externallyAccessible = type === "NodePort" || type === "LoadBalancer" ||
    (type === "ClusterIP" && list(spec.externalIPs).length > 0);
  if (isSet(external) && external !== "") {
    if (!externallyAccessible) {
      errors.push(invalid("spec.externalTrafficPolicy", external, "may only be set when `type` is 'NodePort' or 'LoadBalancer'"));
    } else if (!TRAFFIC_POLICIES.includes(text(external))) {
      errors.push(notSupported("spec.externalTrafficPolicy", external, TRAFFIC_POLICIES));
    }
  }
  const internal = spec.internalTrafficPolicy;
  if (isSet(internal) && !TRAFFIC_POLICIES.includes(text(internal))) {
    errors.push(notSupported("spec.internalTrafficPolicy", internal, TRAFFIC_POLICIES));
  }
  return errors;
}

export function validateService(obj: KubeObject): FieldError[] {
  const spec = record(obj.spec);
  const type = text(spec.type) || "ClusterIP";
  const ips = clusterIPsOf(spec);
  return [
    ...(SERVICE_TYPES.includes(type) ? [] : [notSupported("spec.type", type, SERVICE_TYPES)]),
    ...validatePorts(spec, type, ips[0] === "None"),
    ...validateTypeRules(spec, type, ips),
    ...validateAffinity(spec),
    ...validateTrafficPolicies(spec, type),
  ];
}

/** Cluster IPs may be added or removed but never changed in place, except when moving to or from ExternalName. */
export function validateServiceUpdate(obj: KubeObject, old: KubeObject): FieldError[] {
  const errors = validateService(obj);
  const spec = record(obj.spec);
  const oldSpec = record(old.spec);
  if (spec.type === "ExternalName" || oldSpec.type === "ExternalName") return errors;
  const next = clusterIPsOf(spec);
  const before = clusterIPsOf(oldSpec);
  if (next.length === 0) return errors;
  for (let i = 0; i < Math.min(next.length, before.length); i++) {
    if (next[i] !== before[i]) errors.push(invalid(`spec.clusterIPs[${i}]`, next, "may not change once set", goStringSlice(next)));
  }
  return errors;
}
