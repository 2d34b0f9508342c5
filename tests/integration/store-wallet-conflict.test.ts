// A receiving wallet belongs to one store (docs/architecture.md#data): saving, in the back office,
// the xpub or the address another store already holds is 409 conflict naming the field, and
// changes nothing; the store may save its own wallet again.
import { ERROR_TABLE } from '../../lib/api/error-table';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type Db } from '@/lib/db';
import { MAINNET } from '@/lib/doge';
import { readSettings, updateSettings } from '@/lib/backoffice/settings';
import { BackofficeError } from '@/lib/backoffice/errors';
import { openTestDb } from '../helpers/stores';
import { DGUB } from '../helpers/keys';

const ADDRESS = 'DH5yaieqoZN36fDVciNyRueRGvGLR3mr7L';
let db: Db;

async function failure(p: Promise<unknown>): Promise<{ code: string; status: number; field: string } | 'ok'> {
  try {
    await p;
    return 'ok';
  } catch (e) {
    if (e instanceof BackofficeError) return { code: e.code, status: ERROR_TABLE[e.code].status, field: e.field };
    throw e;
  }
}

beforeAll(async () => {
  db = await openTestDb();
  await db.prisma.store.create({ data: { id: 1, name: 'First' } });
  await db.prisma.store.create({ data: { id: 2, name: 'Second', storeXpub: DGUB, storeAddress: ADDRESS } });
}, 120_000);
afterAll(async () => db?.close());

it("refuses another store's xpub and address with 409 conflict naming the field", async () => {
  expect(await failure(updateSettings(db, 1, MAINNET, { store_xpub: DGUB }))).toEqual({
    code: 'conflict',
    status: 409,
    field: 'store_xpub',
  });
  expect(await failure(updateSettings(db, 1, MAINNET, { store_address: ADDRESS }))).toEqual({
    code: 'conflict',
    status: 409,
    field: 'store_address',
  });
  expect(await readSettings(db, 1)).toMatchObject({ store_xpub: '', store_address: '' });
});

it('lets the store save its own wallet again once the other store lets it go', async () => {
  await db.prisma.store.update({ where: { id: 2 }, data: { storeXpub: '', storeAddress: '' } });
  expect(await failure(updateSettings(db, 1, MAINNET, { store_xpub: DGUB }))).toBe('ok');
  expect(await failure(updateSettings(db, 1, MAINNET, { store_xpub: DGUB, name: 'First again' }))).toBe('ok');
  expect(await readSettings(db, 1)).toMatchObject({ store_xpub: DGUB, name: 'First again' });
});
