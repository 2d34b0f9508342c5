// A strict JSON parser that keeps every number's source text (Node 20's JSON.parse has no
// `context.source` for revivers, and a float would turn 1e400 into Infinity and round
// 0.12345678901234567890). Numbers come back as JsonNumber, everything else as JSON.parse would
// give it. Bounded nesting depth; duplicate keys keep the last value, as JSON.parse does.

export class JsonNumber {
  constructor(readonly source: string) {}
  toString(): string {
    return this.source;
  }
}

export type ExactJson = null | boolean | string | JsonNumber | ExactJson[] | { [k: string]: ExactJson };

export class JsonSyntaxError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'JsonSyntaxError';
  }
}

const MAX_DEPTH = 64;
const NUMBER_RE = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const WS_RE = /[ \t\n\r]*/y;

export function parseExactJson(text: string): ExactJson {
  let i = 0;
  const fail = (what: string): never => {
    throw new JsonSyntaxError(`invalid JSON at offset ${i}: ${what}`);
  };
  const ws = () => {
    WS_RE.lastIndex = i;
    WS_RE.exec(text);
    i = WS_RE.lastIndex;
  };
  const str = (): string => {
    // The string token is handed to JSON.parse, which knows every escape.
    const start = i;
    i++;
    for (;;) {
      const c = text.charCodeAt(i);
      if (Number.isNaN(c)) fail('unterminated string');
      if (c === 0x22) break;
      if (c === 0x5c) i++;
      else if (c < 0x20) fail('control character in string');
      i++;
    }
    i++;
    try {
      return JSON.parse(text.slice(start, i)) as string;
    } catch {
      return fail('bad string escape');
    }
  };
  const value = (depth: number): ExactJson => {
    if (depth > MAX_DEPTH) fail('nested too deeply');
    ws();
    const c = text[i];
    if (c === '{') {
      i++;
      const obj: { [k: string]: ExactJson } = {};
      ws();
      if (text[i] === '}') {
        i++;
        return obj;
      }
      for (;;) {
        ws();
        if (text[i] !== '"') fail('expected a key');
        const k = str();
        ws();
        if (text[i] !== ':') fail("expected ':'");
        i++;
        Object.defineProperty(obj, k, { value: value(depth + 1), enumerable: true, writable: true, configurable: true });
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === '}') {
          i++;
          return obj;
        }
        fail("expected ',' or '}'");
      }
    }
    if (c === '[') {
      i++;
      const arr: ExactJson[] = [];
      ws();
      if (text[i] === ']') {
        i++;
        return arr;
      }
      for (;;) {
        arr.push(value(depth + 1));
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === ']') {
          i++;
          return arr;
        }
        fail("expected ',' or ']'");
      }
    }
    if (c === '"') return str();
    if (text.startsWith('true', i)) return (i += 4), true;
    if (text.startsWith('false', i)) return (i += 5), false;
    if (text.startsWith('null', i)) return (i += 4), null;
    NUMBER_RE.lastIndex = i;
    const m = NUMBER_RE.exec(text);
    if (!m || m[0] === '') return fail('unexpected character');
    i = NUMBER_RE.lastIndex;
    return new JsonNumber(m[0]);
  };
  const v = value(0);
  ws();
  if (i !== text.length) fail('trailing characters');
  return v;
}
