/**
 * allow/deny/warn, as jsPolicy names them: `admit` and `validate` may return a verdict instead of throwing and
 * calling `addWarning`. How a thrown value reads as a refusal lives here too, so the server (core/admission/
 * errors.ts) and the offline fixture kit classify it the same way.
 */

export type Verdict =
  | { allowed: true; warnings?: string[] }
  | { allowed: false; message: string; code?: number; reason?: string; warnings?: string[] };

export function allow(): Verdict {
  return { allowed: true };
}

/** Refuses: without a code the client gets kube's 403 `pods "x" is forbidden: <message>`. */
export function deny(message: string, options: { code?: number; reason?: string } = {}): Verdict {
  return { allowed: false, message, ...options };
}

/** Allows, with `Warning: 299` headers for the client. */
export function warn(...messages: string[]): Verdict {
  return { allowed: true, warnings: messages };
}

/** What a deny verdict throws: a plain Error (kube's Forbidden wording) unless it carries its own code. */
export class AdmissionDenial extends Error {
  code?: number;
  reason?: string;
  constructor(message: string, code?: number, reason?: string) {
    super(message);
    if (code !== undefined) this.code = code;
    if (reason !== undefined) this.reason = reason;
  }
}

/** Errors that mean the plugin itself is broken rather than refusing the request. */
const PROGRAMMING_ERRORS = [TypeError, ReferenceError, RangeError, SyntaxError];

/** A thrown value: `coded` keeps its code and message, `forbidden` is a denial in kube's wording, `failed` a broken plugin. */
export type Refusal =
  | { kind: "coded"; code: number; reason?: string; message: string }
  | { kind: "forbidden"; message: string }
  | { kind: "failed"; message: string };

export function classifyThrown(thrown: unknown): Refusal {
  if (isCoded(thrown)) return { kind: "coded", code: thrown.code, reason: thrown.reason, message: thrown.message };
  if (thrown instanceof Error && !PROGRAMMING_ERRORS.some((type) => thrown instanceof type)) {
    return { kind: "forbidden", message: thrown.message };
  }
  return { kind: "failed", message: thrown instanceof Error ? thrown.message : String(thrown) };
}

function isCoded(value: unknown): value is { code: number; message: string; reason?: string } {
  if (typeof value !== "object" || value === null) return false;
  const { code, message } = value as { code?: unknown; message?: unknown };
  return Number.isInteger(code) && (code as number) >= 400 && (code as number) <= 599 && typeof message === "string";
}
