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

/** A recursive-descent reader over one text; `i` is the offset of the next character. */
class Reader {
  private i = 0;
  constructor(private readonly text: string) {}

  /** The whole text as one value, with nothing but whitespace after it. */
  document(): ExactJson {
    const v = this.value(0);
    this.ws();
    if (this.i !== this.text.length) this.fail('trailing characters');
    return v;
  }

  private fail(what: string): never {
    throw new JsonSyntaxError(`invalid JSON at offset ${this.i}: ${what}`);
  }

  private ws(): void {
    WS_RE.lastIndex = this.i;
    WS_RE.exec(this.text);
    this.i = WS_RE.lastIndex;
  }

  /** Steps over `c` if it is the next character. */
  private eat(c: string): boolean {
    if (this.text[this.i] !== c) return false;
    this.i++;
    return true;
  }

  private value(depth: number): ExactJson {
    if (depth > MAX_DEPTH) this.fail('nested too deeply');
    this.ws();
    const c = this.text[this.i];
    if (c === '{') return this.object(depth);
    if (c === '[') return this.array(depth);
    if (c === '"') return this.string();
    return this.literalOrNumber();
  }

  private object(depth: number): { [k: string]: ExactJson } {
    this.i++;
    const obj: { [k: string]: ExactJson } = {};
    this.ws();
    if (this.eat('}')) return obj;
    for (;;) {
      this.ws();
      if (this.text[this.i] !== '"') this.fail('expected a key');
      const k = this.string();
      this.ws();
      if (!this.eat(':')) this.fail("expected ':'");
      // defineProperty, not assignment: a "__proto__" key is an own property, as JSON.parse makes it.
      Object.defineProperty(obj, k, { value: this.value(depth + 1), enumerable: true, writable: true, configurable: true });
      this.ws();
      if (this.eat(',')) continue;
      if (this.eat('}')) return obj;
      this.fail("expected ',' or '}'");
    }
  }

  private array(depth: number): ExactJson[] {
    this.i++;
    const arr: ExactJson[] = [];
    this.ws();
    if (this.eat(']')) return arr;
    for (;;) {
      arr.push(this.value(depth + 1));
      this.ws();
      if (this.eat(',')) continue;
      if (this.eat(']')) return arr;
      this.fail("expected ',' or ']'");
    }
  }

  private string(): string {
    // The string token is handed to JSON.parse, which knows every escape.
    const { text } = this;
    const start = this.i;
    this.i++;
    for (;;) {
      const c = text.charCodeAt(this.i);
      if (Number.isNaN(c)) this.fail('unterminated string');
      if (c === 0x22) break;
      if (c === 0x5c) this.i++;
      else if (c < 0x20) this.fail('control character in string');
      this.i++;
    }
    this.i++;
    try {
      return JSON.parse(text.slice(start, this.i)) as string;
    } catch {
      return this.fail('bad string escape');
    }
  }

  /** true, false, null, or a number kept as its source text. */
  private literalOrNumber(): ExactJson {
    const { text } = this;
    if (text.startsWith('true', this.i)) return ((this.i += 4), true);
    if (text.startsWith('false', this.i)) return ((this.i += 5), false);
    if (text.startsWith('null', this.i)) return ((this.i += 4), null);
    NUMBER_RE.lastIndex = this.i;
    const m = NUMBER_RE.exec(text);
    if (!m || m[0] === '') return this.fail('unexpected character');
    this.i = NUMBER_RE.lastIndex;
    return new JsonNumber(m[0]);
  }
}

export function parseExactJson(text: string): ExactJson {
  return new Reader(text).document();
}
