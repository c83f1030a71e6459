/**
 * componentstatuses (kube's pkg/registry/core/componentstatus REST): get and list only, each a health check made at
 * request time. kube checks the controller manager and the scheduler at their secure ports' /healthz and each storage
 * backend ("etcd-<n>", EtcdServer.DoServerCheck). kubun runs both components in its own process: one this process
 * runs is healthy with their /healthz answer "ok"; one it does not run is checked where kube checks it, so a real
 * kube-controller-manager or kube-scheduler beside kubun counts. The storage is checked by reading its health key.
 */
import { newMethodNotSupported, StatusError } from "../../api/errors.ts";
import { matchesFields } from "../../api/field-selector.ts";
import { matchesLabels } from "../../api/label-selector.ts";
import { parseListOptions } from "../../api/list-options.ts";
import type { KubeObject, ListMeta } from "../../api/types.ts";
import { isControllerEnabled, KNOWN_CONTROLLERS } from "../../controllers/runtime/mod.ts";
import { respondList, respondObject } from "../respond.ts";
import { virtualHandlerKey } from "../virtual-handlers.ts";
import { nodeHttps } from "../../runtime/lazy-builtins.ts";
import type { Handler } from "./context.ts";

/** A component's check: healthy (condition True) with a message, or not, with kube's message and error texts. */
export interface ComponentCheck {
  healthy: boolean;
  message: string;
  error: string;
}

export type CheckComponent = () => Promise<ComponentCheck>;

/** kube's ports.KubeControllerManagerPort and kubeschedulerconfig.DefaultKubeSchedulerPort. */
const PROBED_PORTS = { "controller-manager": 10257, scheduler: 10259 } as const;
type ProbedComponent = keyof typeof PROBED_PORTS;

/** componentstatus.probeTimeOut. */
const PROBE_TIMEOUT_MS = 20_000;

/** GET of a URL over https with the certificate unchecked (node:https, for both runtimes): status and body. */
function insecureGet(url: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = nodeHttps().get(url, { rejectUnauthorized: false, timeout: PROBE_TIMEOUT_MS }, (response) => {
      let body = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => (body += chunk));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, body }));
      response.on("error", reject);
    });
    request.on("timeout", () => request.destroy(new Error("context deadline exceeded (Client.Timeout exceeded while awaiting headers)")));
    request.on("error", reject);
  });
}

/**
 * HttpServer.DoServerCheck with the certificate unchecked: a 2xx/3xx answer is healthy with its body as the message;
 * another answer, or a failed dial (Go's `Get "<url>": dial tcp ...` text), is unhealthy with it as the message.
 */
async function probeHealthz(component: ProbedComponent): Promise<ComponentCheck> {
  const port = PROBED_PORTS[component];
  const url = `https://127.0.0.1:${port}/healthz`;
  try {
    const { status, body } = await insecureGet(url);
    return { healthy: status >= 200 && status < 400, message: body, error: "" };
  } catch (error) {
    const refused = (error as { code?: string }).code === "ECONNREFUSED";
    const cause = refused ? `dial tcp 127.0.0.1:${port}: connect: connection refused` : (error as Error).message;
    return { healthy: false, message: `Get "${url}": ${cause}`, error: "" };
  }
}

/** The answer of a component this process runs: what its /healthz says. */
const RUNNING_HERE: CheckComponent = () => Promise.resolve({ healthy: true, message: "ok", error: "" });

/** EtcdServer.DoServerCheck: "ok", or no message and the probe's error. */
export function storageCheck(readHealthKey: () => Promise<void>): CheckComponent {
  return () =>
    readHealthKey().then(
      () => ({ healthy: true, message: "ok", error: "" }),
      (error: unknown) => ({ healthy: false, message: "", error: (error as Error).message }),
    );
}

function componentStatus(name: string, check: ComponentCheck): KubeObject {
  return {
    kind: "ComponentStatus",
    apiVersion: "v1",
    metadata: { name },
    conditions: [{
      type: "Healthy",
      status: check.healthy ? "True" : "False",
      ...(check.message ? { message: check.message } : {}),
      ...(check.error ? { error: check.error } : {}),
    }],
  };
}

/**
 * Whether this process runs the scheduler (on with `*` in --controllers), or any of kube-controller-manager's loops,
 * as --controllers says.
 */
function runsHere(component: ProbedComponent, controllers: string[]): boolean {
  if (component === "scheduler") return isControllerEnabled("scheduler", controllers);
  return KNOWN_CONTROLLERS.some((name) => isControllerEnabled(name, controllers));
}

/**
 * kube's serversToValidate: the controller manager and the scheduler (healthy here when this process runs them, else
 * probed) and the storage as etcd-0.
 */
export function componentChecks(controllers: string[], storage: CheckComponent): Map<string, CheckComponent> {
  const probed = (component: ProbedComponent): CheckComponent =>
    runsHere(component, controllers) ? RUNNING_HERE : () => probeHealthz(component);
  return new Map([["controller-manager", probed("controller-manager")], ["scheduler", probed("scheduler")], ["etcd-0", storage]]);
}

/** The handler of `componentstatuses` for the given components, keyed by name. */
export function componentStatusHandlers(components: ReadonlyMap<string, CheckComponent>): [string, Handler][] {
  const handler: Handler = async (ctx) => {
    const resource = { group: "", resource: "componentstatuses" };
    if (ctx.info.verb === "get") {
      const check = components.get(ctx.info.name);
      // REST.Get answers a plain error, which the handler writes as a 500 with no reason.
      if (!check) throw new StatusError(500, "", `Component not found: ${ctx.info.name}`);
      return respondObject(componentStatus(ctx.info.name, await check()), 200, ctx.encode);
    }
    if (ctx.info.verb !== "list") throw newMethodNotSupported(resource, ctx.info.verb);
    const options = parseListOptions(ctx.url.searchParams);
    const checked = await Promise.all([...components].map(async ([name, check]) => componentStatus(name, await check())));
    // Component statuses carry no labels; the selectors still apply, to the empty label set and the name.
    const items = checked.filter((item) =>
      matchesLabels(options.labelSelector, {}) &&
      matchesFields(options.fieldSelector, { "metadata.name": item.metadata.name ?? "", "metadata.namespace": "" })
    );
    // The list is made, not read: its metadata is empty, with no resourceVersion.
    const metadata = {} as ListMeta;
    return respondList({ kind: "ComponentStatusList", apiVersion: "v1", metadata, items }, ctx.encode, "omitted");
  };
  return [[virtualHandlerKey("", "componentstatuses"), handler]];
}
