/**
 * pods/exec, pods/attach and pods/portforward (kube's ExecREST, AttachREST, PortForwardREST with
 * streamLocation / PortForwardLocation): the pod must exist, the container be valid (exec, attach) and the pod
 * be bound to a node (400 "pod p does not have a host assigned"); past that kube upgrades the connection to the
 * node's kubelet, which kubun does not run, so the answer is kube's failed-dial error.
 */
import { newBadRequest, newMethodNotSupported } from "../../api/errors.ts";
import type { ReadOnlyClient } from "../../api/client.ts";
import { newResourceNotFound } from "../resource-route.ts";
import { virtualHandlerKey } from "../virtual-handlers.ts";
import type { Handler, HandlerContext } from "./context.ts";
import { newDialBackendError, nodeConnectionInfo } from "./node-agent.ts";
import { nodeNameOf, validateContainer } from "./pod-containers.ts";

const CONNECT_VERBS = new Set(["get", "create"]);

function streamHandler(client: ReadOnlyClient, subresource: string, checksContainer: boolean): Handler {
  return async (ctx: HandlerContext) => {
    if (ctx.info.namespace === "") throw newResourceNotFound();
    if (!CONNECT_VERBS.has(ctx.info.verb)) throw newMethodNotSupported({ group: "", resource: `pods/${subresource}` }, ctx.info.verb);
    const pod = await ctx.store.get(ctx.info.namespace, ctx.info.name);
    if (checksContainer) validateContainer(ctx.url.searchParams.get("container") ?? "", pod);
    const nodeName = nodeNameOf(pod);
    if (nodeName === "") throw newBadRequest(`pod ${ctx.info.name} does not have a host assigned`);
    throw newDialBackendError(await nodeConnectionInfo(client, nodeName));
  };
}

export function podStreamHandlers(client: ReadOnlyClient): [string, Handler][] {
  return [
    [virtualHandlerKey("", "pods", "exec"), streamHandler(client, "exec", true)],
    [virtualHandlerKey("", "pods", "attach"), streamHandler(client, "attach", true)],
    [virtualHandlerKey("", "pods", "portforward"), streamHandler(client, "portforward", false)],
  ];
}
