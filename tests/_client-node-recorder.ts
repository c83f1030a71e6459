/**
 * Calls @kubernetes/client-node's typed methods and checks each answer twice: the client's typed object came back
 * (no exception), and the raw JSON it was built from has the shape of the client's model
 * (tests/_client-node-shapes.ts) and what the request set.
 */
import { ApiException, type ConfigurationOptions, Observable, type ObservableMiddleware, setHeaderOptions } from "@kubernetes/client-node";
import type { Json } from "./_api.ts";
import { shapeProblems } from "./_client-node-shapes.ts";

/** Paths of `expected`'s leaves that `actual` lacks or holds otherwise. */
export function missingFields(expected: unknown, actual: unknown, path = ""): string[] {
  if (expected !== null && typeof expected === "object") {
    if (actual === null || typeof actual !== "object") return [`${path || "."}: ${JSON.stringify(actual)}`];
    return Object.entries(expected).flatMap(([key, value]) =>
      missingFields(value, (actual as Record<string, unknown>)[key], `${path}.${key}`)
    );
  }
  return expected === actual ? [] : [`${path}: ${JSON.stringify(actual)} where the request set ${JSON.stringify(expected)}`];
}

export function failureText(error: unknown): string {
  if (!(error instanceof ApiException)) return String(error);
  try {
    return `HTTP ${error.code}: ${JSON.parse(error.body as string).message}`;
  } catch {
    return `HTTP ${error.code}: ${error.body}`;
  }
}

export class AnswerChecker {
  calls = 0;
  readonly failures: [string, string][] = [];
  /** Per-call options: the typed APIs take the Observable form of middleware (as setHeaderOptions builds). */
  readonly options: ConfigurationOptions;
  #raw: string | undefined;
  #sent: unknown;
  /** The client's model for each kind and its list, learnt from the typed answers. */
  #models = new Map<string, string>();

  constructor() {
    // Keeps the answer's text, which ObjectSerializer would otherwise reduce to what its models name.
    const recorder: ObservableMiddleware = {
      pre: (request) => {
        const body = request.getBody();
        this.#sent = typeof body === "string" ? JSON.parse(body) : undefined;
        return new Observable(Promise.resolve(request));
      },
      post: (response) =>
        new Observable(
          response.body.text().then((text) => {
            this.#raw = text;
            response.body = { text: () => Promise.resolve(text), binary: () => Promise.resolve(Buffer.from(text)) };
            return response;
          }),
        ),
    };
    this.options = { middleware: [recorder], middlewareMergeStrategy: "append" };
  }

  withPatchType(strategy: string): ConfigurationOptions {
    return setHeaderOptions("Content-Type", strategy, this.options);
  }

  /**
   * Runs one typed call (made with `this.options`) and records what is wrong with its answer. `kind` is the kind
   * the answer must be (or its list, or a Scale, or a Status); `expected` what it must hold, "sent" the request's body.
   */
  async call(label: string, run: () => Promise<Json>, kind?: string, expected?: unknown): Promise<Json> {
    this.calls++;
    this.#raw = undefined;
    let answer: Json;
    try {
      answer = await run();
    } catch (error) {
      this.failures.push([label, failureText(error)]);
      return undefined;
    }
    const body = this.#raw === undefined ? undefined : JSON.parse(this.#raw);
    const typed: string = answer?.constructor?.name;
    if (body?.kind && body.kind !== "Status" && typed !== "V1Status") this.#models.set(body.kind, typed);
    // A delete's typed answer is a V1Status; kube answers with the object or the list of what it deleted.
    const model = body?.kind === "Status" ? "V1Status" : this.#models.get(body?.kind) ?? typed;
    const problems = [
      ...shapeProblems(body, model),
      ...(expected === undefined ? [] : missingFields(expected === "sent" ? this.#sent : expected, body)),
    ];
    if (kind && body?.kind && body.kind !== "Status" && ![kind, `${kind}List`, "Scale"].includes(body.kind)) {
      problems.push(`kind ${body.kind}`);
    }
    if (problems.length) this.failures.push([label, problems.join("; ")]);
    return answer;
  }
}
