/** The label selector lexer of k8s.io/apimachinery/pkg/labels, token for token. */

export type TokenKind =
  | "end"
  | "closePar"
  | "comma"
  | "doesNotExist"
  | "doubleEquals"
  | "equals"
  | "greaterThan"
  | "identifier"
  | "in"
  | "lessThan"
  | "notEquals"
  | "notIn"
  | "openPar";

export interface Token {
  kind: TokenKind;
  literal: string;
}

const LITERAL_TOKENS: Record<string, TokenKind> = {
  ")": "closePar",
  ",": "comma",
  "!": "doesNotExist",
  "==": "doubleEquals",
  "=": "equals",
  ">": "greaterThan",
  in: "in",
  "<": "lessThan",
  "!=": "notEquals",
  notin: "notIn",
  "(": "openPar",
};

const isWhitespace = (ch: string) => ch === " " || ch === "\t" || ch === "\r" || ch === "\n";
const isSpecialSymbol = (ch: string) => "=!(),><".includes(ch);

/** Splits the selector into tokens, ending with an `end` token. */
export function lexLabelSelector(text: string): Token[] {
  const tokens: Token[] = [];
  let pos = 0;
  for (;;) {
    while (pos < text.length && isWhitespace(text[pos])) pos++;
    if (pos >= text.length) {
      tokens.push({ kind: "end", literal: "" });
      return tokens;
    }
    const start = pos;
    if (isSpecialSymbol(text[pos])) {
      // Longest run of symbols that still forms a known operator ("!=" but "=(" → "=").
      let kind = LITERAL_TOKENS[text[pos]];
      pos++;
      while (pos < text.length && isSpecialSymbol(text[pos]) && LITERAL_TOKENS[text.slice(start, pos + 1)]) {
        kind = LITERAL_TOKENS[text.slice(start, pos + 1)];
        pos++;
      }
      tokens.push({ kind, literal: text.slice(start, pos) });
      continue;
    }
    while (pos < text.length && !isSpecialSymbol(text[pos]) && !isWhitespace(text[pos])) pos++;
    const literal = text.slice(start, pos);
    const keyword = literal === "in" || literal === "notin" ? LITERAL_TOKENS[literal] : undefined;
    tokens.push({ kind: keyword ?? "identifier", literal });
  }
}
