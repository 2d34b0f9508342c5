// Store settings as the back office changes them, on PGlite in-process (lib/backoffice/settings-change.ts):
// the risk policy's confirmation counts are the owner's, like its limits; and the store's text,
// signed into every envelope as vendor_name and vendor_address, follows the one printable-text
// rule the customer display follows (lib/text/printable.ts, docs/security.md).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openMigratedDb, type Db } from '@/lib/db';
import { MAINNET } from '@/lib/doge';
import { readSettings } from '@/lib/backoffice/settings';
import { changeSettings } from '@/lib/backoffice/settings-change';
import { createProduct } from '@/lib/backoffice/catalog';
import { BackofficeError } from '@/lib/backoffice/errors';
import { DisplayCartSchema } from '@/lib/display/view';
import { DGUB } from '../helpers/keys';

const owner = { id: 'owner-1', role: 'owner' as const };
const manager = { id: 'manager-1', role: 'manager' as const };
let db: Db;

/** `code:message` of the BackofficeError a change throws, or 'ok'. */
async function outcome(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return 'ok';
  } catch (e) {
    if (e instanceof BackofficeError) return `${e.code}:${e.message}`;
    throw e;
  }
}

beforeAll(async () => {
  db = await openMigratedDb({ memory: true });
  await db.prisma.store.upsert({ where: { id: 1 }, update: { storeXpub: DGUB }, create: { id: 1, storeXpub: DGUB } });
}, 60_000);
afterAll(async () => db?.close());

describe('the risk policy\'s confirmations are the owner\'s', () => {
  it('a manager who lowers or changes either count gets 403 naming it; nothing is saved', async () => {
    const before = await readSettings(db);
    for (const patch of [{ high_conf_required: 1 }, { high_conf_required: before.high_conf_required + 1 }, { one_conf_required: 2 }, { high_conf_required: '1' }]) {
      const r = await outcome(changeSettings(db, MAINNET, manager, patch));
      expect(r, JSON.stringify(patch)).toMatch(/^forbidden:(one|high)_conf_required: only the owner changes the risk policy's confirmations/);
    }
    expect(await readSettings(db)).toEqual(before);
  });

  it('the form sending the counts back unchanged is no change; the owner changes them', async () => {
    const before = await readSettings(db);
    const form = await changeSettings(db, MAINNET, manager, { name: 'Managed shop', one_conf_required: before.one_conf_required, high_conf_required: before.high_conf_required });
    expect(form.name).toBe('Managed shop');
    const after = await changeSettings(db, MAINNET, owner, { high_conf_required: 2 });
    expect(after.high_conf_required).toBe(2);
  });
});

describe('store text is printable', () => {
  const refused = ['\u2028', '\u2029', '\u202a', '\u202b', '\u202c', '\u202d', '\u202e', '\u2066', '\u2067', '\u2068', '\u2069', '\u0007', '\u0085'];

  it.each(refused.map((c) => [c.codePointAt(0)!.toString(16).padStart(4, '0')]))('U+%s in the name or the address: 400 naming the field, nothing saved', async (hex) => {
    const c = String.fromCodePoint(parseInt(hex, 16));
    const before = await readSettings(db);
    expect(await outcome(changeSettings(db, MAINNET, owner, { name: `Corner${c}shop` }))).toMatch(/^invalid_request:name: must not contain control characters, line separators or bidi overrides/);
    expect(await outcome(changeSettings(db, MAINNET, owner, { address: `1 Main St${c}\nSpringfield` }))).toMatch(/^invalid_request:address: must not contain/);
    expect(await outcome(changeSettings(db, MAINNET, owner, { categories: ['Drinks', `Ho${c}t`] }))).toMatch(/^invalid_request:categories\[1\]: must not contain/);
    expect(await readSettings(db)).toEqual(before);
  });

  it('the customer display refuses the same characters in a line, by the same rule', () => {
    const cart = (name: string) => ({ currency: 'USD', lines: [{ name, count: 1, total: '100' }], adjustments: [], total: '100', payment_id: null });
    for (const c of refused) expect(DisplayCartSchema.safeParse(cart(`Tea${c}`)).success, c.codePointAt(0)!.toString(16)).toBe(false);
    expect(DisplayCartSchema.safeParse(cart('Café ☕ 👩‍🍳 שלום')).success).toBe(true);
  });

  it('keeps ordinary text: accents, emoji with joiners, right-to-left script, and a line feed in the address', async () => {
    const s = await changeSettings(db, MAINNET, owner, { name: 'Café 👩‍🍳 שלום', address: '1 Main St\nSpringfield' });
    expect(s).toMatchObject({ name: 'Café 👩‍🍳 שלום', address: '1 Main St\nSpringfield' });
  });
});

describe('product text is printable by the same rule', () => {
  it('a product named or categorised with a bidi override or a line separator is refused, naming the field', async () => {
    for (const [field, value] of [['name', 'Tea\u202eaeT'], ['category', 'Hot\u2028drinks'], ['description', 'Nice\u2066tea']] as const) {
      const r = await outcome(createProduct(db, { sku: `P-${field}`, name: 'Tea', price: '1', [field]: value }, null));
      expect(r, field).toMatch(new RegExp(`^invalid_request:${field}: must not contain control characters, line separators or bidi overrides`));
    }
    expect(await db.prisma.product.count({ where: { sku: { startsWith: 'P-' } } })).toBe(0);
  });
});
