// Property-based inputs for hardening JSON endpoints (fast-check): valid bodies mutated at random
// paths, any body text (random strings, JSON whole or cut short, prototype keys, deep nesting),
// and the check every answer to them must pass: never a 5xx.
import fc from 'fast-check';

/** Replace, delete or add fields at random paths of a JSON value. */
export function mutateJson(base: unknown): fc.Arbitrary<unknown> {
  const edit = fc.tuple(
    fc.array(fc.nat(), { minLength: 1, maxLength: 4 }),
    fc.oneof(
      fc.jsonValue({ maxDepth: 2 }),
      fc.constant(undefined),
      fc.constantFrom('', '-1', '1e5', '0.000000001', 'NaN', -1, 1e308, 2 ** 53 + 1, null, [], {}),
    ),
  );
  return fc.array(edit, { minLength: 1, maxLength: 4 }).map((edits) => {
    const v = structuredClone(base) as Record<string, unknown>;
    for (const [pathIdx, value] of edits) {
      let node: Record<string, unknown> = v;
      for (let d = 0; d < pathIdx.length; d++) {
        if (node === null || typeof node !== 'object') break;
        const keys = Object.keys(node);
        const last = d === pathIdx.length - 1 || keys.length === 0;
        const k = keys.length ? keys[pathIdx[d] % keys.length] : 'x';
        if (last || node[k] === null || typeof node[k] !== 'object') {
          if (value === undefined) delete node[k];
          else node[k] = structuredClone(value); // constants are shared between runs: never alias them
          break;
        }
        node = node[k] as Record<string, unknown>;
      }
    }
    return v;
  });
}

/** Any body text: random strings, random JSON (whole or truncated) and known troublemakers. */
export const bodyText = fc.oneof(
  fc.string({ maxLength: 200 }),
  fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)),
  fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v).slice(0, -1)), // truncated JSON
  fc.constantFrom(
    '',
    'null',
    '[]',
    '{}',
    '"x"',
    '{"__proto__":{"x":1}}',
    '{"constructor":{"prototype":{}}}',
    '\u0000',
    '{"a":'.repeat(500),
  ),
);

/** Fails with the status, the input and the answer when the app answered 5xx. */
export const never5xx = (r: { status: number; text: string }, what: unknown) => {
  if (r.status >= 500) throw new Error(`${r.status} for ${JSON.stringify(what).slice(0, 300)}: ${r.text.slice(0, 200)}`);
};
