// Input the app cannot decode, on the real built app: a path with a malformed percent-escape is a
// clear 400 with the security headers (JSON on the API's paths), never a bare 500; a catalog file
// that is not UTF-8 is refused with a 400 naming the problem, in the dry run and the import, while
// a UTF-8 file with a byte order mark still imports (docs/security.md, docs/catalog.md).
import { beforeAll, describe, expect, it } from 'vitest';
import { request } from 'node:http';
import { sharedShop, type SharedShop } from '../helpers/shared-app';
import type { Session } from '../helpers/sessions';
import { testXpub } from '../helpers/keys';

const PASSWORD = 'undecodable input password';
let app: SharedShop;
let owner: Session;

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/** A GET of `path` exactly as written: fetch would normalise it, a raw request does not. */
function rawGet(path: string): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const r = request({ host: '127.0.0.1', port: app.port, path, method: 'GET' }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c) => {
        text += c;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
    });
    r.on('error', reject);
    r.end();
  });
}

async function importCsv(bytes: Uint8Array, dryRun: boolean) {
  const r = await fetch(`${app.url}/api/admin/products/import${dryRun ? '?dry_run=1' : ''}`, {
    method: 'POST',
    headers: { Cookie: owner.cookie, 'X-CSRF-Token': owner.csrf, 'Content-Type': 'text/csv' },
    body: Buffer.from(bytes),
  });
  return { status: r.status, body: await r.json() };
}

beforeAll(async () => {
  app = await sharedShop('bytes.test', { xpub: testXpub(203), password: PASSWORD });
  owner = app.owner;
}, 180_000);

describe('a path with a malformed percent-escape', () => {
  const SECURITY = ['x-content-type-options', 'referrer-policy', 'x-frame-options', 'content-security-policy'];

  it.each([
    '/dc/%ff',
    '/dc/%',
    '/relay/%',
    '/relay/status/%e0%a4%a',
    '/api/v1/payments/%ff',
    '/api/v1/payments/%ff/events',
    '/api/admin/products/%zz',
    '/invoices/%ff',
  ])('%s answers 400 invalid_request in JSON, with the security headers', async (path) => {
    const r = await rawGet(path);
    expect(r.status, r.text).toBe(400);
    expect(r.headers['content-type']).toMatch(/^application\/json/);
    expect(JSON.parse(r.text)).toEqual({ error: 'invalid_request', message: expect.stringMatching(/malformed percent-escape/) });
    for (const h of SECURITY) expect(r.headers[h], h).toBeTruthy();
    expect(r.headers['x-content-type-options']).toBe('nosniff');
  });

  it.each(['/checkout/%ff', '/%', '/admin/%c0', '/pos/%ff%'])(
    '%s (a page) answers 400 in plain text, with the security headers',
    async (path) => {
      const r = await rawGet(path);
      expect(r.status, r.text).toBe(400);
      expect(r.headers['content-type']).toMatch(/^text\/plain/);
      expect(r.text).toMatch(/malformed percent-escape/);
      for (const h of SECURITY) expect(r.headers[h], h).toBeTruthy();
    },
  );

  it('a well-formed escape still reaches its route', async () => {
    const r = await rawGet('/api/v1/payments/%61bc');
    expect(r.status).toBe(401); // the vendor API's own answer: no key
    expect((await rawGet('/checkout/no%20such')).status).toBe(404);
  });
});

describe('a catalog file that is not UTF-8', () => {
  const latin1 = Buffer.concat([Buffer.from('sku,name,price\nLAT-1,caf'), Buffer.from([0xe9]), Buffer.from(',2\n')]);

  it('is refused with a 400 naming the problem, in the dry run and the import; nothing is imported', async () => {
    for (const dryRun of [true, false]) {
      const r = await importCsv(latin1, dryRun);
      expect(r.status, JSON.stringify(r.body)).toBe(400);
      expect(r.body).toEqual({ error: 'invalid_request', message: expect.stringMatching(/not UTF-8/) });
    }
    const list = await fetch(`${app.url}/api/admin/products?archived=1`, { headers: { Cookie: owner.cookie } });
    expect((await list.json()).products.map((p: { sku: string }) => p.sku)).not.toContain('LAT-1');
  });

  it('in UTF-8, with or without a byte order mark, imports the names as written', async () => {
    const utf8 = Buffer.from('sku,name,price\nUTF-1,café,2\n', 'utf8');
    const bom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('sku,name,price\nUTF-2,crème brûlée,3\n', 'utf8')]);
    for (const file of [utf8, bom]) {
      const dry = await importCsv(file, true);
      expect(dry.status, JSON.stringify(dry.body)).toBe(200);
      expect(dry.body).toMatchObject({ create: 1, errors: [] });
      expect((await importCsv(file, false)).status).toBe(200);
    }
    const list = await fetch(`${app.url}/api/admin/products`, { headers: { Cookie: owner.cookie } });
    const names = Object.fromEntries((await list.json()).products.map((p: { sku: string; name: string }) => [p.sku, p.name]));
    expect(names).toMatchObject({ 'UTF-1': 'café', 'UTF-2': 'crème brûlée' });
  });
});
