/**
 * Label selectors as k8s.io/apimachinery/pkg/labels parses and matches them: the `labelSelector`
 * query string and metav1.LabelSelector objects. Parse errors are 400s with kube's messages.
 */
import { newBadRequest } from "./errors.ts";
import { aggregateMessage, goQuote, goStringSlice } from "./go-text.ts";
import { lexLabelSelector, type Token, type TokenKind } from "./_label-lexer.ts";
import { isQualifiedName, isValidLabelValue } from "./names.ts";

/** kube's selection.Operator values. "!" is DoesNotExist. */
export type LabelOperator = "=" | "==" | "!=" | "in" | "notin" | "exists" | "!" | "gt" | "lt";

export interface LabelRequirement {
  key: string;
  operator: LabelOperator;
  /** Sorted and de-duplicated for parsed selectors, as kube's sets.String does. */
  values: string[];
}

export interface LabelSelector {
  /** ANDed, sorted by key. */
  requirements: LabelRequirement[];
  /** True for the selector that matches nothing (a nil metav1.LabelSelector). */
  matchesNothing?: boolean;
}

const BINARY_OPERATORS: Partial<Record<TokenKind, LabelOperator>> = {
  in: "in",
  notIn: "notin",
  equals: "=",
  doubleEquals: "==",
  notEquals: "!=",
  greaterThan: "gt",
  lessThan: "lt",
};
const BINARY_OPERATOR_NAMES = "in, notin, =, ==, !=, gt, lt";

const byKey = (a: LabelRequirement, b: LabelRequirement) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);

function keyError(key: string, path: string): string | undefined {
  const errors = isQualifiedName(key);
  return errors.length ? `${path}: Invalid value: ${goQuote(key)}: ${errors.join("; ")}` : undefined;
}

/** kube's labels.NewRequirement: every problem with key, operator and values, or the requirement. */
function newRequirement(key: string, operator: LabelOperator, values: string[]): LabelRequirement {
  const errors: string[] = [];
  const keyProblem = keyError(key, "key");
  if (keyProblem) errors.push(keyProblem);
  const invalidValues = (detail: string) => `values: Invalid value: ${goStringSlice(values)}: ${detail}`;
  if ((operator === "in" || operator === "notin") && values.length === 0) {
    errors.push(invalidValues("for 'in', 'notin' operators, values set can't be empty"));
  } else if ((operator === "=" || operator === "==" || operator === "!=") && values.length !== 1) {
    errors.push(invalidValues("exact-match compatibility requires one single value"));
  } else if ((operator === "exists" || operator === "!") && values.length !== 0) {
    errors.push(invalidValues("values set must be empty for exists and does not exist"));
  } else if (operator === "gt" || operator === "lt") {
    if (values.length !== 1) errors.push(invalidValues("for 'Gt', 'Lt' operators, exactly one value is required"));
    values.forEach((v, i) => {
      if (!/^[+-]?\d+$/.test(v)) {
        errors.push(`values[${i}]: Invalid value: ${goQuote(v)}: for 'Gt', 'Lt' operators, the value must be an integer`);
      }
    });
  }
  values.forEach((v, i) => {
    const problems = isValidLabelValue(v);
    if (problems.length) errors.push(`values[${i}][${key}]: Invalid value: ${goQuote(v)}: ${problems.join("; ")}`);
  });
  if (errors.length) throw new Error(aggregateMessage(errors));
  return { key, operator, values };
}

class Parser {
  #tokens: Token[];
  #position = 0;

  constructor(text: string) {
    this.#tokens = lexLabelSelector(text);
  }

  /** In value position the keywords in/notin are plain identifiers. */
  #peek(): Token {
    const token = this.#tokens[this.#position];
    return token.kind === "in" || token.kind === "notIn" ? { kind: "identifier", literal: token.literal } : token;
  }

  #next(asValue = true): Token {
    const token = this.#tokens[this.#position++];
    return asValue ? (token.kind === "in" || token.kind === "notIn" ? { kind: "identifier", literal: token.literal } : token) : token;
  }

  parse(): LabelRequirement[] {
    const requirements: LabelRequirement[] = [];
    for (;;) {
      const { kind, literal } = this.#peek();
      if (kind === "end") return requirements;
      if (kind !== "identifier" && kind !== "doesNotExist") {
        throw new Error(`found '${literal}', expected: !, identifier, or 'end of string'`);
      }
      try {
        requirements.push(this.#requirement());
      } catch (e) {
        throw new Error(`unable to parse requirement: ${(e as Error).message}`, { cause: e });
      }
      const after = this.#next();
      if (after.kind === "end") return requirements;
      if (after.kind !== "comma") throw new Error(`found '${after.literal}', expected: ',' or 'end of string'`);
      const following = this.#peek();
      if (following.kind !== "identifier" && following.kind !== "doesNotExist") {
        throw new Error(`found '${following.literal}', expected: identifier after ','`);
      }
    }
  }

  #requirement(): LabelRequirement {
    let token = this.#next();
    const negated = token.kind === "doesNotExist";
    if (negated) token = this.#next();
    if (token.kind !== "identifier") throw new Error(`found '${token.literal}', expected: identifier`);
    const keyProblem = keyError(token.literal, "<nil>");
    if (keyProblem) throw new Error(keyProblem);
    const key = token.literal;
    if (negated) return newRequirement(key, "!", []);
    const following = this.#peek().kind;
    if (following === "end" || following === "comma") return newRequirement(key, "exists", []);
    const opToken = this.#next(false);
    const operator = BINARY_OPERATORS[opToken.kind];
    if (!operator) throw new Error(`found '${opToken.literal}', expected: ${BINARY_OPERATOR_NAMES}`);
    const values = operator === "in" || operator === "notin" ? this.#setValues() : this.#exactValue();
    return newRequirement(key, operator, [...new Set(values)].sort());
  }

  #setValues(): string[] {
    const open = this.#next();
    if (open.kind !== "openPar") throw new Error(`found '${open.literal}' expected: '('`);
    const { kind, literal } = this.#peek();
    if (kind === "closePar") {
      this.#next();
      return [""];
    }
    if (kind !== "identifier" && kind !== "comma") throw new Error(`found '${literal}', expected: ',', ')' or identifier`);
    const values = this.#identifierList();
    if (this.#next().kind !== "closePar") throw new Error(`found '${literal}', expected: ')'`);
    return values;
  }

  /** A possibly empty, comma separated list of possibly empty identifiers: "(a,,b)", "(,a)", "(a,)". */
  #identifierList(): string[] {
    const values: string[] = [];
    for (;;) {
      const token = this.#next();
      if (token.kind === "identifier") {
        values.push(token.literal);
        const after = this.#peek();
        if (after.kind === "closePar") return values;
        if (after.kind !== "comma") throw new Error(`found '${after.literal}', expected: ',' or ')'`);
      } else if (token.kind === "comma") {
        if (values.length === 0) values.push("");
        const after = this.#peek().kind;
        if (after === "closePar") return [...values, ""];
        if (after === "comma") {
          this.#next();
          values.push("");
        }
      } else {
        throw new Error(`found '${token.literal}', expected: ',', or identifier`);
      }
    }
  }

  #exactValue(): string[] {
    const { kind } = this.#peek();
    if (kind === "end" || kind === "comma") return [""];
    const token = this.#next();
    if (token.kind === "identifier") return [token.literal];
    throw new Error(`found '${token.literal}', expected: identifier`);
  }
}

/** Parses a `labelSelector` query value; 400 with kube's message when it is not valid. */
export function parseLabelSelector(text: string): LabelSelector {
  try {
    return { requirements: new Parser(text).parse().sort(byKey) };
  } catch (e) {
    throw newBadRequest((e as Error).message);
  }
}

type MetaLabelSelector = {
  matchLabels?: Record<string, string> | null;
  matchExpressions?: { key: string; operator: string; values?: string[] | null }[] | null;
};

const OBJECT_OPERATORS: Record<string, LabelOperator> = { In: "in", NotIn: "notin", Exists: "exists", DoesNotExist: "!" };

/** metav1.LabelSelectorAsSelector: absent matches nothing, empty matches everything; 400 when invalid. */
export function labelSelectorFromObject(selector: MetaLabelSelector | null | undefined): LabelSelector {
  if (selector === null || selector === undefined) return { requirements: [], matchesNothing: true };
  try {
    const requirements = Object.entries(selector.matchLabels ?? {}).map(([k, v]) => newRequirement(k, "=", [v]));
    for (const expression of selector.matchExpressions ?? []) {
      const operator = OBJECT_OPERATORS[expression.operator];
      if (!operator) throw new Error(`${goQuote(expression.operator)} is not a valid label selector operator`);
      requirements.push(newRequirement(expression.key, operator, [...(expression.values ?? [])]));
    }
    return { requirements: requirements.sort(byKey) };
  } catch (e) {
    throw newBadRequest((e as Error).message);
  }
}

/** labels.SelectorFromSet: every key equal to its value; an empty set matches everything. */
export function selectorFromSet(set: Record<string, string>): LabelSelector {
  return { requirements: Object.entries(set).map(([key, value]) => ({ key, operator: "=" as const, values: [value] })).sort(byKey) };
}

const NODE_SELECTOR_OPERATORS: Record<string, LabelOperator> = {
  In: "in",
  NotIn: "notin",
  Exists: "exists",
  DoesNotExist: "!",
  Gt: "gt",
  Lt: "lt",
};

/**
 * v1helper.NodeSelectorRequirementsAsSelector: node affinity's requirements (In, NotIn, Exists, DoesNotExist, Gt,
 * Lt) as a label selector; an empty list or an invalid requirement matches nothing, as kube's scheduler treats them.
 */
export function nodeSelectorRequirementsAsSelector(requirements: { key: string; operator: string; values?: string[] }[]): LabelSelector {
  if (requirements.length === 0) return { requirements: [], matchesNothing: true };
  try {
    return {
      requirements: requirements.map((r) => {
        const operator = NODE_SELECTOR_OPERATORS[r.operator];
        if (!operator) throw new Error(`${goQuote(r.operator)} is not a valid node selector operator`);
        return newRequirement(r.key, operator, [...(r.values ?? [])]);
      }).sort(byKey),
    };
  } catch {
    return { requirements: [], matchesNothing: true };
  }
}

export function isEverything(selector: LabelSelector): boolean {
  return !selector.matchesNothing && selector.requirements.length === 0;
}

function requirementMatches({ key, operator, values }: LabelRequirement, labels: Record<string, string>): boolean {
  const has = Object.hasOwn(labels, key);
  switch (operator) {
    case "in":
    case "=":
    case "==":
      return has && values.includes(labels[key]);
    case "notin":
    case "!=":
      return !has || !values.includes(labels[key]);
    case "exists":
      return has;
    case "!":
      return !has;
    case "gt":
    case "lt": {
      if (!has || values.length !== 1 || !/^[+-]?\d+$/.test(labels[key])) return false;
      const actual = BigInt(labels[key]);
      const bound = BigInt(values[0]);
      return operator === "gt" ? actual > bound : actual < bound;
    }
  }
}

export function matchesLabels(selector: LabelSelector, labels: Record<string, string> | undefined): boolean {
  if (selector.matchesNothing) return false;
  const present = labels ?? {};
  return selector.requirements.every((r) => requirementMatches(r, present));
}
