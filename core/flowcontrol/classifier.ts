/**
 * Classification of requests to a FlowSchema and priority level (kube's configController.startRequest: the first
 * FlowSchema in matching order whose rules match and whose priority level exists, else catch-all), remembered per
 * user, groups and request attributes until the configuration changes, so a repeated kind of request does not walk
 * the FlowSchemas again.
 */
import type { KubeObject } from "../api/types.ts";
import { CATCH_ALL, MANDATORY_FLOW_SCHEMAS } from "../api/flowcontrol-bootstrap.ts";
import { flowDistinguisher, type FlowSchemaSpec, inMatchingOrder, matchesFlowSchema, type RequestDigest } from "./matching.ts";

/** The FlowSchema and priority level a request was classified to, with their UIDs for the response headers. */
export interface Classification {
  flowSchema: string;
  flowSchemaUid: string;
  priorityLevel: string;
  priorityLevelUid: string;
  distinguisher: string;
}

/** A priority level as the classifier sees it. */
export interface ClassifiedLevel {
  object: KubeObject;
}

interface SchemaState<Level> {
  name: string;
  uid: string;
  spec: FlowSchemaSpec;
  level: Level;
}

/** Classifications kept before the cache starts afresh (a bound for servers with very many users). */
const MAX_REMEMBERED_FLOWS = 10_000;

export class Classifier<Level extends ClassifiedLevel, Flow extends { classification: Classification; level: Level }> {
  readonly #schemas: SchemaState<Level>[];
  readonly #fallback: SchemaState<Level>;
  readonly #flows = new Map<string, Flow>();
  readonly #newFlow: (classification: Classification, level: Level) => Flow;

  /**
   * `flowSchemas` with kube's mandatory ones; `levelOf` finds a priority level by name. A schema whose level is
   * missing is passed over; catch-all (its mandatory spec) takes what no schema matches.
   */
  constructor(
    flowSchemas: readonly KubeObject[],
    levelOf: (name: string) => Level | undefined,
    newFlow: (classification: Classification, level: Level) => Flow,
  ) {
    this.#schemas = inMatchingOrder(flowSchemas).flatMap((object) => {
      const spec = (object.spec ?? {}) as FlowSchemaSpec;
      const level = levelOf(spec.priorityLevelConfiguration?.name ?? "");
      return level ? [{ name: String(object.metadata.name), uid: String(object.metadata.uid ?? ""), spec, level }] : [];
    });
    const catchAll = MANDATORY_FLOW_SCHEMAS.find((object) => object.metadata.name === CATCH_ALL)!;
    this.#fallback = { name: CATCH_ALL, uid: "", spec: catchAll.spec as FlowSchemaSpec, level: levelOf(CATCH_ALL)! };
    this.#newFlow = newFlow;
  }

  flowOf(request: RequestDigest): Flow {
    // Everything matching and the distinguisher read; a resource request's name and path are not among them.
    const target = request.isResourceRequest
      ? `${request.apiGroup}\0${request.resource}\0${request.subresource}\0${request.namespace}`
      : request.path;
    const key = `${request.username}\x01${request.groups.join("\0")}\x01${request.verb}\x01${request.isResourceRequest}\x01${target}`;
    let flow = this.#flows.get(key);
    if (flow) return flow;
    const schema = this.#schemas.find((candidate) => matchesFlowSchema(request, candidate.spec)) ?? this.#fallback;
    const level = schema.level;
    flow = this.#newFlow({
      flowSchema: schema.name,
      flowSchemaUid: schema.uid,
      priorityLevel: String(level.object.metadata.name),
      priorityLevelUid: String(level.object.metadata.uid ?? ""),
      distinguisher: flowDistinguisher(request, schema.spec),
    }, level);
    if (this.#flows.size >= MAX_REMEMBERED_FLOWS) this.#flows.clear();
    this.#flows.set(key, flow);
    return flow;
  }
}
