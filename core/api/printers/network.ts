/** Printers for Services, Endpoints, EndpointSlices, Ingresses, IngressClasses and NetworkPolicies. */
import type { KubeObject } from "../types.ts";
import { formatLabels, formatLabelSelector, joinHostPort, type LabelSelectorObject, listWithMore, loadBalancerText } from "./_format.ts";
import { AGE_COLUMN, column, definePrinter, NAME_COLUMN, wideColumn } from "./_printer.ts";
import { ageOf } from "./duration.ts";

type LoadBalancerStatus = { ingress?: { ip?: string; hostname?: string }[] };

interface Service extends KubeObject {
  spec?: {
    type?: string;
    clusterIP?: string;
    clusterIPs?: string[];
    externalIPs?: string[];
    externalName?: string;
    selector?: Record<string, string>;
    ports?: { port: number; nodePort?: number; protocol?: string }[];
  };
  status?: { loadBalancer?: LoadBalancerStatus };
}

interface Endpoints extends KubeObject {
  subsets?: { addresses?: { ip: string }[]; ports?: { port: number }[] }[];
}

interface EndpointSlice extends KubeObject {
  addressType?: string;
  ports?: { port?: number | null; name?: string | null }[] | null;
  endpoints?: { addresses?: string[] }[] | null;
}

interface Ingress extends KubeObject {
  spec?: { ingressClassName?: string; rules?: { host?: string }[]; tls?: unknown[] };
  status?: { loadBalancer?: LoadBalancerStatus };
}

interface IngressClass extends KubeObject {
  spec?: { controller?: string; parameters?: { apiGroup?: string; kind: string; name: string } };
}

/** getServiceExternalIP as the server computes it (wide, so load-balancer addresses are never clipped). */
function externalIP(service: Service): string {
  const spec = service.spec ?? {};
  const externalIPs = spec.externalIPs ?? [];
  switch (spec.type) {
    case "ClusterIP":
    case "NodePort":
      return externalIPs.length > 0 ? externalIPs.join(",") : "<none>";
    case "LoadBalancer": {
      const balancer = loadBalancerText(service.status?.loadBalancer?.ingress);
      const all = [...(balancer ? balancer.split(",") : []), ...externalIPs];
      return all.length > 0 ? all.join(",") : "<pending>";
    }
    case "ExternalName":
      return spec.externalName ?? "";
  }
  return "<unknown>";
}

function portsText(service: Service): string {
  const ports = (service.spec?.ports ?? []).map(({ port, nodePort, protocol }) =>
    nodePort && nodePort > 0 ? `${port}:${nodePort}/${protocol ?? ""}` : `${port}/${protocol ?? ""}`
  );
  return ports.length > 0 ? ports.join(",") : "<none>";
}

export const servicePrinter = definePrinter<Service>(
  [
    NAME_COLUMN,
    column("Type", "How the service is exposed"),
    column("Cluster-IP", "The service's cluster IP"),
    column("External-IP", "Addresses the service is reachable at from outside"),
    column("Port(s)", "Service ports, with node ports"),
    AGE_COLUMN,
    wideColumn("Selector", "Label selector of the backing pods"),
  ],
  (service, now) => [
    service.metadata.name,
    service.spec?.type ?? "",
    service.spec?.clusterIPs?.[0] || service.spec?.clusterIP || "<none>",
    externalIP(service),
    portsText(service),
    ageOf(service, now),
    formatLabels(service.spec?.selector),
  ],
);

/** formatEndpoints: address:port pairs (bare addresses for port-less subsets), three at most. */
function endpointsText(endpoints: Endpoints): string {
  const subsets = endpoints.subsets ?? [];
  if (subsets.length === 0) return "<none>";
  const items = subsets.flatMap((subset) => {
    const addresses = subset.addresses ?? [];
    const ports = subset.ports ?? [];
    if (ports.length === 0) return addresses.map((a) => a.ip);
    return ports.flatMap((p) => addresses.map((a) => joinHostPort(a.ip, p.port)));
  });
  return listWithMore(items);
}

export const endpointsPrinter = definePrinter<Endpoints>(
  [NAME_COLUMN, column("Endpoints", "Ready endpoint addresses"), AGE_COLUMN],
  (endpoints, now) => [endpoints.metadata.name, endpointsText(endpoints), ageOf(endpoints, now)],
);

export const endpointSlicePrinter = definePrinter<EndpointSlice>(
  [
    NAME_COLUMN,
    column("AddressType", "The type of addresses in the slice"),
    column("Ports", "Ports of the slice's endpoints"),
    column("Endpoints", "Addresses of the slice's endpoints"),
    AGE_COLUMN,
  ],
  (slice, now) => [
    slice.metadata.name,
    slice.addressType ?? "",
    listWithMore((slice.ports ?? []).map((p) => (p.port ?? p.name ?? "*").toString()), { empty: "<unset>" }),
    listWithMore((slice.endpoints ?? []).flatMap((e) => e.addresses ?? []), { empty: "<unset>" }),
    ageOf(slice, now),
  ],
);

/** formatHosts: up to three hosts, "*" when no rule names one; "more" counts every further rule. */
function hostsText(rules: { host?: string }[]): string {
  const hosts: string[] = [];
  let more = false;
  for (const rule of rules) {
    if (hosts.length === 3) more = true;
    if (!more && rule.host) hosts.push(rule.host);
  }
  if (hosts.length === 0) return "*";
  return more ? `${hosts.join(",")} + ${rules.length - 3} more...` : hosts.join(",");
}

export const ingressPrinter = definePrinter<Ingress>(
  [
    NAME_COLUMN,
    column("Class", "The IngressClass this ingress uses"),
    column("Hosts", "Hosts the rules match"),
    column("Address", "Addresses of the load balancer"),
    column("Ports", "Ports the ingress opens"),
    AGE_COLUMN,
  ],
  (ingress, now) => [
    ingress.metadata.name,
    ingress.spec?.ingressClassName ?? "<none>",
    hostsText(ingress.spec?.rules ?? []),
    loadBalancerText(ingress.status?.loadBalancer?.ingress),
    (ingress.spec?.tls ?? []).length > 0 ? "80, 443" : "80",
    ageOf(ingress, now),
  ],
);

export const ingressClassPrinter = definePrinter<IngressClass>(
  [
    NAME_COLUMN,
    column("Controller", "The controller that implements this class"),
    column("Parameters", "The resource holding extra parameters"),
    AGE_COLUMN,
  ],
  (ingressClass, now) => {
    const parameters = ingressClass.spec?.parameters;
    const kind = parameters && (parameters.apiGroup ? `${parameters.kind}.${parameters.apiGroup}` : parameters.kind);
    return [
      ingressClass.metadata.name,
      ingressClass.spec?.controller ?? "",
      parameters ? `${kind}/${parameters.name}` : "<none>",
      ageOf(ingressClass, now),
    ];
  },
);

export const networkPolicyPrinter = definePrinter<KubeObject & { spec?: { podSelector?: LabelSelectorObject } }>(
  [NAME_COLUMN, column("Pod-Selector", "The pods the policy applies to"), AGE_COLUMN],
  (policy, now) => [policy.metadata.name, formatLabelSelector(policy.spec?.podSelector ?? {}), ageOf(policy, now)],
);
