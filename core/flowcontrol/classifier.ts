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
/**
 * A request whose user, groups and path or namespace are longer than this is classified afresh each time and never
 * remembered, so the cache holds at most MAX_REMEMBERED_FLOWS times this many characters of them.
 */
const MAX_REMEMBERED_KEY_CHARS = 1024;

export class Classifier<Level extends ClassifiedLevel, Flow extends { classification: Classification; level: Level }> {
  readonly #schemas: SchemaState<Level>[];
  readonly #fallback: SchemaState<Level>;
  readonly #resourceFlows: Branch = new Map();
  readonly #pathFlows: Branch = new Map();
  readonly #groupsKeys = new WeakMap<readonly string[], string>();
  #remembered = 0;
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
    const last = request.isResourceRequest ? request.namespace : request.path;
    let groups = this.#groupsKeys.get(request.groups);
    if (groups === undefined) this.#groupsKeys.set(request.groups, groups = request.groups.join("\0"));
    if (request.username.length + groups.length + last.length > MAX_REMEMBERED_KEY_CHARS) return this.#classify(request);
    const flows = this.#flowsOf(request, groups);
    let flow = flows.get(last);
    if (flow) return flow;
    flow = this.#classify(request);
    if (++this.#remembered > MAX_REMEMBERED_FLOWS) {
      this.#resourceFlows.clear();
      this.#pathFlows.clear();
      this.#remembered = 1;
      this.#flowsOf(request, groups).set(last, flow);
    } else flows.set(last, flow);
    return flow;
  }

  #classify(request: RequestDigest): Flow {
    const schema = this.#schemas.find((candidate) => matchesFlowSchema(request, candidate.spec)) ?? this.#fallback;
    const level = schema.level;
    return this.#newFlow({
      flowSchema: schema.name,
      flowSchemaUid: schema.uid,
      priorityLevel: String(level.object.metadata.name),
      priorityLevelUid: String(level.object.metadata.uid ?? ""),
      distinguisher: flowDistinguisher(request, schema.spec),
    }, level);
  }

  /**
   * The remembered flows of the request's user, groups, verb and (for a resource request) group, resource and
   * subresource, by namespace or path: a look-up per field of strings the request already holds, where one key made of
   * them all cost a create ~1-2 µs (bench/profiles/create-path.md, thirteenth session). The groups' joined text is
   * kept per list, which an authenticated user's identity shares across its requests.
   */
  #flowsOf(request: RequestDigest, groups: string): Map<string, Flow> {
    if (!request.isResourceRequest) return leaf(branch(branch(this.#pathFlows, groups), request.username), request.verb);
    const byVerb = branch(branch(branch(this.#resourceFlows, groups), request.username), request.verb);
    return leaf(branch(branch(byVerb, request.apiGroup), request.resource), request.subresource);
  }
}

/** Nested maps keyed by one field each, ending in the flows. */
interface Branch extends Map<string, Branch | Map<string, unknown>> {}

function branch(node: Branch, key: string): Branch {
  let next = node.get(key) as Branch | undefined;
  if (next === undefined) node.set(key, next = new Map());
  return next;
}

function leaf<Flow>(node: Branch, key: string): Map<string, Flow> {
  return branch(node, key) as Map<string, Flow>;
}
