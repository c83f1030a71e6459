/**
 * Field selectors as k8s.io/apimachinery/pkg/fields parses them (`=`, `==`, `!=`, comma = AND,
 * backslash escapes in values), plus the per-kind label check the list handler runs
 * (Scheme.ConvertFieldLabel) with each kind's own rejection message.
 */
import { newBadRequest } from "./errors.ts";

export interface FieldRequirement {
  field: string;
  operator: "=" | "!=";
  value: string;
}

export interface FieldSelector {
  /** ANDed, in kube's order (terms sorted as text). */
  requirements: FieldRequirement[];
}

/** Splits on commas that are not backslash-escaped; escapes stay in the terms. */
function splitTerms(text: string): string[] {
  if (text === "") return [];
  const terms: string[] = [];
  let start = 0;
  let escaped = false;
  for (let i = 0; i < text.length; i++) {
    if (escaped) escaped = false;
    else if (text[i] === "\\") escaped = true;
    else if (text[i] === ",") {
      terms.push(text.slice(start, i));
      start = i + 1;
    }
  }
  terms.push(text.slice(start));
  return terms;
}

function unescapeValue(value: string): string {
  if (!/[\\,=]/.test(value)) return value;
  let out = "";
  for (let i = 0; i < value.length; i++) {
    const ch = value[i];
    if (ch === "\\") {
      if (i + 1 >= value.length) throw new Error("invalid field selector: invalid escape sequence: \\");
      const next = value[++i];
      if (next !== "\\" && next !== "," && next !== "=") throw new Error(`invalid field selector: invalid escape sequence: \\${next}`);
      out += next;
    } else if (ch === "," || ch === "=") {
      // Go prints the rune with %v, i.e. its code point number.
      throw new Error(`invalid field selector: unescaped character in value: ${ch.codePointAt(0)}`);
    } else {
      out += ch;
    }
  }
  return out;
}

const OPERATORS = ["!=", "==", "="] as const;

/** The first operator occurrence splits the term; the field part cannot be escaped. */
function splitTerm(term: string): [string, (typeof OPERATORS)[number], string] | undefined {
  for (let i = 0; i < term.length; i++) {
    const op = OPERATORS.find((candidate) => term.startsWith(candidate, i));
    if (op) return [term.slice(0, i), op, term.slice(i + op.length)];
  }
  return undefined;
}

/** Parses a `fieldSelector` query value; 400 with kube's message when malformed. */
export function parseFieldSelector(text: string): FieldSelector {
  const requirements: FieldRequirement[] = [];
  for (const term of splitTerms(text).sort()) {
    if (term === "") continue;
    const parts = splitTerm(term);
    if (!parts) throw newBadRequest(`invalid selector: '${text}'; can't understand '${term}'`);
    const [field, op, rawValue] = parts;
    let value: string;
    try {
      value = unescapeValue(rawValue);
    } catch (e) {
      throw newBadRequest((e as Error).message);
    }
    requirements.push({ field, operator: op === "!=" ? "!=" : "=", value });
  }
  return { requirements };
}

/** A field that is absent reads as "", as kube's fields.Set.Get does. */
export function matchesFields(selector: FieldSelector, fields: Record<string, string>): boolean {
  return selector.requirements.every(({ field, operator, value }) => ((fields[field] ?? "") === value) === (operator === "="));
}

export function isEverythingFields(selector: FieldSelector): boolean {
  return selector.requirements.length === 0;
}

/** kube's Selector.RequiresExactMatch: the value the first `field=value` term asks for, undefined without one. */
export function requiredFieldValue(selector: FieldSelector, field: string): string | undefined {
  return selector.requirements.find((r) => r.field === field && r.operator === "=")?.value;
}

/** Which field labels a kind accepts, what old spellings it rewrites, and how it words a rejection. */
export interface FieldLabelRules {
  /** Accepted label → the label it is matched as (usually itself). */
  accepted: Record<string, string>;
  reject(label: string): string;
}

/**
 * Checks every field against the kind's rules and rewrites aliases (pods' `spec.host` → `spec.nodeName`).
 * 400 with the kind's own message (e.g. `field label not supported: foo`) for an unknown field.
 */
export function validateFieldSelector(selector: FieldSelector, rules: FieldLabelRules): FieldSelector {
  return {
    requirements: selector.requirements.map((r) => {
      const field = rules.accepted[r.field];
      if (field === undefined) throw newBadRequest(rules.reject(r.field));
      return { ...r, field };
    }),
  };
}
