/** Facts about kube 1.26's built-in REST storage that shape its OpenAPI documents but are not in the catalog. */
import type { ResourceType } from "../api/resource-type.ts";
import type { HttpMethod, Parameter } from "./openapi-model.ts";

const query = (name: string, type: Parameter["type"] = "string"): Parameter => ({ name, in: "query", type });

/** Query parameters of GET pods/{name}/log (PodLogOptions). */
export const LOG_PARAMETERS: readonly Parameter[] = [
  query("container"),
  query("follow", "boolean"),
  query("insecureSkipTLSVerifyBackend", "boolean"),
  query("limitBytes", "integer"),
  query("previous", "boolean"),
  query("sinceSeconds", "integer"),
  query("tailLines", "integer"),
  query("timestamps", "boolean"),
];

export interface ConnectSubresource {
  methods: readonly HttpMethod[];
  /** Query parameters from the subresource's options kind. */
  parameters: readonly Parameter[];
  /** Also served as `<subresource>/{path}`. */
  withPath: boolean;
}

const STREAM_METHODS: readonly HttpMethod[] = ["get", "post"];
const PROXY_METHODS: readonly HttpMethod[] = ["get", "put", "post", "patch", "delete", "head", "options"];
const STREAMS = [query("stderr", "boolean"), query("stdin", "boolean"), query("stdout", "boolean"), query("tty", "boolean")];
const PROXY: ConnectSubresource = { methods: PROXY_METHODS, parameters: [query("path")], withPath: true };

const CONNECT: Record<string, ConnectSubresource> = {
  "pods/attach": { methods: STREAM_METHODS, parameters: [query("container"), ...STREAMS], withPath: false },
  "pods/exec": { methods: STREAM_METHODS, parameters: [query("command"), query("container"), ...STREAMS], withPath: false },
  "pods/portforward": { methods: STREAM_METHODS, parameters: [query("ports", "integer")], withPath: false },
  "pods/proxy": PROXY,
  "services/proxy": PROXY,
  "nodes/proxy": PROXY,
};

/** The connect facts of a core subresource (exec, attach, portforward, proxy), if it is one. */
export function connectSubresource(type: ResourceType, subresource: string): ConnectSubresource | undefined {
  return type.group === "" ? CONNECT[`${type.resource}/${subresource}`] : undefined;
}
