// docs/openapi.yaml itself, before any server answers to it: an OpenAPI 3.1.0 document whose
// references all resolve, whose schemas compile as strict JSON Schema 2020-12 (a misspelt keyword
// fails), and whose every path parameter is declared. The answers are checked against it by the
// other openapi-*.test.ts files.
import { describe, expect, it } from 'vitest';
import { OpenApiChecker, loadOpenApi, unresolvedRefs, type ParameterSpec } from '../helpers/openapi';

const doc = loadOpenApi();
const checker = new OpenApiChecker(doc);

describe('openapi: the document', () => {
  it('is OpenAPI 3.1.0 whose refs resolve and whose schemas compile as strict JSON Schema 2020-12', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(unresolvedRefs(doc)).toEqual([]);
    expect(checker.compileAll()).toEqual(
      expect.arrayContaining(['Payment', 'PaymentStatus', 'ConnectEnvelope', 'ConnectPayment', 'Error', 'Event', 'Invoice', 'Health']),
    );
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const name of path.match(/\{\w+\}/g) ?? []) {
        const declared = [
          ...(item.parameters ?? []),
          ...Object.values(item).flatMap((op) => (op as { parameters?: ParameterSpec[] } | undefined)?.parameters ?? []),
        ]
          .map((p: ParameterSpec): ParameterSpec => (p.$ref ? doc.components.parameters[p.$ref.split('/').pop()!] : p))
          .some((p: ParameterSpec) => p.in === 'path' && `{${p.name}}` === name);
        expect(declared, `${path} declares ${name}`).toBe(true);
      }
    }
  });
});
