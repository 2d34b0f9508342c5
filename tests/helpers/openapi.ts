// Checks real HTTP answers against docs/openapi.yaml: the status must be documented for the
// operation, headers marked required must be there, the content type must be a documented media
// type (or no body when none is documented), and a JSON body must validate against the schema
// (JSON Schema 2020-12, ajv in strict mode: an unknown keyword in the document is an error).
// Every checked (method, path, status) is recorded, so a test can require that each one the
// document names was exercised.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parse } from 'yaml';
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';

export const OPENAPI_FILE = resolve(__dirname, '../../docs/openapi.yaml');
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;
const SCHEMAS_ID = 'counter-openapi-schemas';

/** A JSON Schema as the document writes it: handed to ajv as it is. */
type Schema = Record<string, unknown>;
/** A header, a response or any object of the document that may be a `$ref` instead. */
interface Ref {
  $ref?: string;
}
interface HeaderSpec extends Ref {
  required?: boolean;
  schema?: Schema;
}
interface ResponseSpec extends Ref {
  headers?: Record<string, HeaderSpec>;
  content?: Record<string, { schema?: Schema }>;
  /** The status is also sent without a body. */
  'x-body-optional'?: boolean;
}
interface OperationSpec {
  tags?: string[];
  parameters?: ParameterSpec[];
  responses?: Record<string, ResponseSpec>;
}
/** A parameter (inline, or a `$ref` to components.parameters). */
export interface ParameterSpec extends Ref {
  in?: string;
  name?: string;
}
/** A path item: its shared parameters and one operation per method. */
export type PathItemSpec = { parameters?: ParameterSpec[] } & Partial<Record<(typeof METHODS)[number], OperationSpec>>;
/** The parts of docs/openapi.yaml the checker and its tests read. */
export interface OpenApiDoc {
  openapi: string;
  paths: Record<string, PathItemSpec>;
  components: { schemas?: Record<string, Schema>; parameters: Record<string, ParameterSpec> };
}

export function loadOpenApi(file = OPENAPI_FILE): OpenApiDoc {
  return parse(readFileSync(file, 'utf8')) as OpenApiDoc;
}

/**
 * `GET /api/v1/payments/{id} 200` for every documented response; `tagged`: only those of the
 * operations whose tags it accepts (a test file that exercises one part of the document).
 */
export function documentedResponses(doc: OpenApiDoc, tagged: (tags: string[]) => boolean = () => true): string[] {
  const out: string[] = [];
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const m of METHODS) {
      const op = item[m];
      if (!op || !tagged(op.tags ?? [])) continue;
      for (const status of Object.keys(op.responses ?? {})) out.push(`${m.toUpperCase()} ${path} ${status}`);
    }
  }
  return out;
}

/** Every local `$ref` in the document, with whether it resolves. */
export function unresolvedRefs(doc: OpenApiDoc): string[] {
  const bad: string[] = [];
  const walk = (v: unknown) => {
    if (Array.isArray(v)) return v.forEach(walk);
    if (!v || typeof v !== 'object') return;
    for (const [k, x] of Object.entries(v)) {
      if (k === '$ref' && typeof x === 'string' && resolvePointer(doc, x) === undefined) bad.push(x);
      else walk(x);
    }
  };
  walk(doc);
  return bad;
}

/** What a local `$ref` points at in the document, or undefined when it points at nothing. */
function resolvePointer(doc: OpenApiDoc, ref: string): unknown {
  if (!ref.startsWith('#/')) return undefined;
  let cur: unknown = doc;
  for (const raw of ref.slice(2).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (cur === null || typeof cur !== 'object' || !(key in cur)) return undefined;
    cur = (cur as Record<string, unknown>)[key];
  }
  return cur;
}

/** The document's schemas with `#/components/schemas/X` refs pointing at the ajv-registered set. */
function rebase<T>(v: T): T {
  return JSON.parse(JSON.stringify(v), (k, x) =>
    k === '$ref' && typeof x === 'string' && x.startsWith('#/components/schemas/')
      ? `${SCHEMAS_ID}#/$defs/${x.slice('#/components/schemas/'.length)}`
      : x,
  );
}

export interface Observed {
  status: number;
  headers: Headers;
  /** The raw body text ('' when none). */
  text: string;
}

/** ajv's errors, each with its instance path and parameters (which name the extra or missing field). */
function explain(errors: ValidateFunction['errors']): string {
  return (errors ?? []).map((e) => `${e.instancePath || '(body)'} ${e.message} ${JSON.stringify(e.params)}`).join('; ');
}

export class OpenApiChecker {
  readonly seen = new Set<string>();
  private readonly ajv: Ajv2020;
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor(readonly doc: OpenApiDoc) {
    this.ajv = new Ajv2020({ allErrors: true, strict: true, strictTypes: false, strictRequired: false, allowUnionTypes: true });
    // RFC 3339 date-time, as the server writes it (Date#toISOString) and as docs/api.md asks.
    this.ajv.addFormat('date-time', /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/);
    this.ajv.addSchema({ $id: SCHEMAS_ID, $defs: rebase(doc.components?.schemas ?? {}) });
  }

  /** Compiles every component schema (strict mode: a misspelt keyword throws). */
  compileAll(): string[] {
    return Object.keys(this.doc.components?.schemas ?? {}).map((name) => {
      this.validator(`${SCHEMAS_ID}#/$defs/${name}`, { $ref: `${SCHEMAS_ID}#/$defs/${name}` });
      return name;
    });
  }

  private validator(key: string, schema: Schema): ValidateFunction {
    let v = this.compiled.get(key);
    if (!v) {
      v = this.ajv.compile(rebase(schema));
      this.compiled.set(key, v);
    }
    return v;
  }

  /** `x`, or what its `$ref` points at (followed until it is no ref); `T` is the kind of object it is. */
  private deref<T extends Ref>(x: T | undefined): T | undefined {
    return x && typeof x.$ref === 'string' ? this.deref(resolvePointer(this.doc, x.$ref) as T | undefined) : x;
  }

  /** Validates `value` against a component schema; throws with ajv's errors. */
  validateSchema(name: string, value: unknown, what = name): void {
    const v = this.validator(`${SCHEMAS_ID}#/$defs/${name}`, { $ref: `${SCHEMAS_ID}#/$defs/${name}` });
    if (!v(value)) throw new Error(`${what} does not match ${name}: ${explain(v.errors)}\n${JSON.stringify(value).slice(0, 2000)}`);
  }

  /**
   * Checks one answer of `METHOD template` against the document and records it. Returns the
   * parsed JSON body (or the text for other media types, or null without a body), which has
   * passed the document's schema: `T` is how the caller reads it.
   */
  check<T = unknown>(method: string, template: string, r: Observed): T {
    const label = `${method.toUpperCase()} ${template} ${r.status}`;
    const op = this.doc.paths?.[template]?.[method.toLowerCase() as (typeof METHODS)[number]];
    if (!op) throw new Error(`${method} ${template} is not in the document`);
    const resp = this.deref(op.responses?.[String(r.status)]);
    if (!resp) throw new Error(`${label}: status ${r.status} is not documented for this operation; body: ${r.text.slice(0, 500)}`);

    for (const [name, h0] of Object.entries(resp.headers ?? {})) {
      const h = this.deref(h0)!;
      const value = r.headers.get(name);
      if (value === null) {
        if (h.required) throw new Error(`${label}: required header ${name} is missing`);
        continue;
      }
      if (h.schema) {
        const v = this.validator(`${label} header ${name}`, h.schema);
        if (!v(value)) throw new Error(`${label}: header ${name}: ${JSON.stringify(value)} ${explain(v.errors)}`);
      }
    }

    let body: unknown = null;
    const content = resp.content;
    // `x-body-optional`: the status is also sent without a body (a 503 for a database outage
    // on a route whose own 503 carries a JSON error).
    if (content && resp['x-body-optional'] === true && r.text === '') {
      this.seen.add(label);
      return null as T;
    }
    if (!content) {
      if (r.text !== '') throw new Error(`${label}: no body is documented, but the server sent ${JSON.stringify(r.text.slice(0, 300))}`);
    } else {
      const ct = r.headers.get('content-type') ?? '';
      const media = ct.split(';')[0].trim().toLowerCase();
      const entry = content[media];
      if (!entry)
        throw new Error(
          `${label}: content type ${JSON.stringify(ct)} is not one of ${Object.keys(content).join(', ')}; body ${r.text.slice(0, 300)}`,
        );
      if (media === 'application/json') {
        try {
          body = JSON.parse(r.text);
        } catch {
          throw new Error(`${label}: body is not JSON: ${r.text.slice(0, 300)}`);
        }
      } else {
        body = r.text;
      }
      if (entry.schema) {
        const v = this.validator(`${label} ${media}`, entry.schema);
        if (!v(body)) throw new Error(`${label}: body does not match the document: ${explain(v.errors)}\n${r.text.slice(0, 2000)}`);
      }
    }
    this.seen.add(label);
    return body as T;
  }
}
