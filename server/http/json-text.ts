// One pass over the text of a JSON body that JSON.parse has already accepted, finding what the
// parsed value can no longer show or what the database cannot store:
//   - nesting deeper than the limit (checked first, so nothing later walks a deep value);
//   - a key repeated in one object (JSON.parse keeps the last one silently, while a proxy or a
//     logger in front of us may keep the first: one body must never read as two different orders);
//   - strings holding U+0000 or a lone UTF-16 surrogate (escaped as \u0000 or \ud800), which
//     PostgreSQL text refuses or replaces, so two different ids could be stored as one;
//   - numbers under a key ending in _cents written with a decimal point or exponent (120.00 parses
//     to the integer 120, but a sender writing major units would book a hundredth of the amount).
// It keeps its own stack: the caller controls the depth of the text, never of our call stack.

/** How deeply objects and arrays may nest in a request body (a real order nests 3 levels). */
export const MAX_JSON_DEPTH = 32;

export type JsonPath = Array<string | number>;

/** Why PostgreSQL cannot store a text as sent, or null when it can: the body, path and query rule. */
export function unstorableText(value: string): 'nulCharacters' | 'illFormedUnicode' | null {
  if (value.includes('\u0000')) return 'nulCharacters';
  if (!value.isWellFormed()) return 'illFormedUnicode';
  return null;
}

export interface JsonTextFindings {
  /** True when the body nests deeper than the limit; nothing else is reported then. */
  tooDeep: boolean;
  duplicateKeys: JsonPath[];
  nulCharacters: JsonPath[];
  illFormedUnicode: JsonPath[];
  centsWithDecimals: JsonPath[];
}

interface Frame {
  kind: 'object' | 'array';
  keys: Set<string> | null;
  /** The key or index of the value being read inside this container. */
  at: string | number;
}

const STRING_TOKEN = /"(?:[^"\\]|\\.)*"/y;
const LITERAL_TOKEN = /-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null/y;
const INTEGER_TEXT = /^-?(?:0|[1-9]\d*)$/;

function isWhitespace(code: number): boolean {
  return code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09;
}

export function inspectJsonText(text: string, maxDepth: number = MAX_JSON_DEPTH): JsonTextFindings {
  const findings: JsonTextFindings = { tooDeep: false, duplicateKeys: [], nulCharacters: [], illFormedUnicode: [], centsWithDecimals: [] };
  const stack: Frame[] = [];
  const path = (last?: string): JsonPath => {
    const result: JsonPath = stack.map((frame) => frame.at);
    if (last !== undefined) result[result.length - 1] = last;
    return result;
  };
  let i = 0;
  const skipWhitespace = () => {
    while (i < text.length && isWhitespace(text.charCodeAt(i))) i += 1;
  };
  /** Reads the string token at i; returns its value (decoded only when it holds an escape). */
  const readString = (): string => {
    STRING_TOKEN.lastIndex = i;
    const token = STRING_TOKEN.exec(text)?.[0] ?? '""';
    i += token.length;
    const inner = token.slice(1, -1);
    // Text decoded from well-formed UTF-8 holds no NUL (JSON forbids raw control characters) and no
    // lone surrogate: only an escape can bring either in.
    return inner.includes('\\') ? (JSON.parse(token) as string) : inner;
  };
  const checkText = (value: string, at: () => JsonPath) => {
    const problem = unstorableText(value);
    if (problem !== null) findings[problem].push(at());
  };

  // Reads one value at i; containers push a frame and are finished by the loop below.
  const readValue = (): void => {
    skipWhitespace();
    const c = text.charAt(i);
    if (c === '{' || c === '[') {
      if (stack.length >= maxDepth) {
        findings.tooDeep = true;
        return;
      }
      stack.push({ kind: c === '{' ? 'object' : 'array', keys: c === '{' ? new Set() : null, at: 0 });
      i += 1;
      return;
    }
    if (c === '"') {
      checkText(readString(), () => path());
      return;
    }
    LITERAL_TOKEN.lastIndex = i;
    const literal = LITERAL_TOKEN.exec(text)?.[0] ?? '';
    i += Math.max(literal.length, 1);
    const key = stack.at(-1)?.at;
    if (typeof key === 'string' && key.endsWith('_cents') && /^-?\d/.test(literal) && !INTEGER_TEXT.test(literal)) {
      findings.centsWithDecimals.push(path());
    }
  };

  readValue();
  while (stack.length > 0 && !findings.tooDeep) {
    const frame = stack[stack.length - 1] as Frame;
    skipWhitespace();
    const c = text.charAt(i);
    if (c === '}' || c === ']') {
      i += 1;
      stack.pop();
      continue;
    }
    if (c === ',') {
      i += 1;
      skipWhitespace();
      if (frame.kind === 'array') frame.at = (frame.at as number) + 1;
    }
    if (frame.kind === 'object') {
      const key = readString();
      checkText(key, () => path(key));
      if (frame.keys?.has(key)) findings.duplicateKeys.push(path(key));
      frame.keys?.add(key);
      frame.at = key;
      skipWhitespace();
      i += 1; // the colon
    }
    readValue();
  }
  return findings;
}
