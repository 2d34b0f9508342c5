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
import { registerTerminal } from '@/lib/backoffice/terminals';
import { createUserWithRole } from '@/lib/backoffice/users';
import { priceRequest } from '@/lib/payments/creation/request';
import { InvalidRequestError } from '@/lib/errors';
import { isPrintable } from '@/lib/text/printable';
import { DGUB } from '../helpers/keys';

const owner = { id: 'owner-1', role: 'owner' as const, storeId: 1 };
const manager = { id: 'manager-1', role: 'manager' as const, storeId: 1 };
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

describe("the risk policy's confirmations are the owner's", () => {
  it('a manager who lowers or changes either count gets 403 naming it; nothing is saved', async () => {
    const before = await readSettings(db, 1);
    for (const patch of [
      { high_conf_required: 1 },
      { high_conf_required: before.high_conf_required + 1 },
      { one_conf_required: 2 },
      { high_conf_required: '1' },
    ]) {
      const r = await outcome(changeSettings(db, MAINNET, manager, patch));
      expect(r, JSON.stringify(patch)).toMatch(
        /^forbidden:(one|high)_conf_required: only the owner changes the risk policy's confirmations/,
      );
    }
    expect(await readSettings(db, 1)).toEqual(before);
  });

  it('the form sending the counts back unchanged is no change; the owner changes them', async () => {
    const before = await readSettings(db, 1);
    const form = await changeSettings(db, MAINNET, manager, {
      name: 'Managed shop',
      one_conf_required: before.one_conf_required,
      high_conf_required: before.high_conf_required,
    });
    expect(form.name).toBe('Managed shop');
    const after = await changeSettings(db, MAINNET, owner, { high_conf_required: 2 });
    expect(after.high_conf_required).toBe(2);
  });
});

describe('store text is printable', () => {
  // Controls, separators, bidi controls and marks, and the invisible format characters.
  const refused = [
    '\u2028',
    '\u2029',
    '\u202a',
    '\u202b',
    '\u202c',
    '\u202d',
    '\u202e',
    '\u2066',
    '\u2067',
    '\u2068',
    '\u2069',
    '\u0007',
    '\u0085',
    '\u200b',
    '\ufeff',
    '\u2060',
    '\u200e',
    '\u200f',
    '\u061c',
    '\u00ad',
    '\u{e0041}',
  ];

  it.each(refused.map((c) => [c.codePointAt(0)!.toString(16).padStart(4, '0')]))(
    'U+%s in the name or the address: 400 naming the field, nothing saved',
    async (hex) => {
      const c = String.fromCodePoint(parseInt(hex, 16));
      const before = await readSettings(db, 1);
      expect(await outcome(changeSettings(db, MAINNET, owner, { name: `Corner${c}shop` }))).toMatch(
        /^invalid_request:name: must not contain control characters, line separators or bidi overrides/,
      );
      expect(await outcome(changeSettings(db, MAINNET, owner, { address: `1 Main St${c}\nSpringfield` }))).toMatch(
        /^invalid_request:address: must not contain/,
      );
      expect(await outcome(changeSettings(db, MAINNET, owner, { categories: ['Drinks', `Ho${c}t`] }))).toMatch(
        /^invalid_request:categories\[1\]: must not contain/,
      );
      expect(await readSettings(db, 1)).toEqual(before);
    },
  );

  it('the customer display refuses the same characters in a line, by the same rule', () => {
    const cart = (name: string) => ({
      currency: 'USD',
      lines: [{ name, count: 1, total: '100' }],
      adjustments: [],
      total: '100',
      payment_id: null,
    });
    for (const c of refused) expect(DisplayCartSchema.safeParse(cart(`Tea${c}`)).success, c.codePointAt(0)!.toString(16)).toBe(false);
    expect(DisplayCartSchema.safeParse(cart('Café ☕ 👩‍🍳 שלום')).success).toBe(true);
    expect(DisplayCartSchema.safeParse(cart('\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645')).success).toBe(true);
  });

  it('the rule: a lone surrogate is refused; a line feed only where asked; the joiners kept', () => {
    expect(isPrintable('a\ud800b')).toBe(false);
    expect(isPrintable('a\nb')).toBe(false);
    expect(isPrintable('a\nb', { lineFeed: true })).toBe(true);
    expect(isPrintable('a\u2028b', { lineFeed: true })).toBe(false);
    expect(isPrintable('a\u200bb', { lineFeed: true })).toBe(false);
    expect(isPrintable('👩\u200d🍳 \u0645\u06cc\u200c\u062e')).toBe(true);
  });

  it('keeps ordinary text: accents, emoji with joiners, right-to-left script, and a line feed in the address', async () => {
    const s = await changeSettings(db, MAINNET, owner, { name: 'Café 👩‍🍳 שלום', address: '1 Main St\nSpringfield' });
    expect(s).toMatchObject({ name: 'Café 👩‍🍳 שלום', address: '1 Main St\nSpringfield' });
  });
});

describe('product text is printable by the same rule', () => {
  it('a product named or categorised with a bidi override or a line separator is refused, naming the field', async () => {
    for (const [field, value] of [
      ['name', 'Tea\u202eaeT'],
      ['category', 'Hot\u2028drinks'],
      ['description', 'Nice\u2066tea'],
    ] as const) {
      const r = await outcome(createProduct(db, 1, { sku: `P-${field}`, name: 'Tea', price: '1', [field]: value }, null));
      expect(r, field).toMatch(
        new RegExp(`^invalid_request:${field}: must not contain control characters, line separators or bidi overrides`),
      );
    }
    expect(await db.prisma.product.count({ where: { sku: { startsWith: 'P-' } } })).toBe(0);
  });
});

describe('tills, staff and payment items follow the same rule', () => {
  const refused = ['\u202e', '\u2028', '\u200b', '\ufeff', '\u0007'];

  it("a till's name: refused with 400 naming it; ordinary text with a joiner is kept", async () => {
    const staff = await createUserWithRole(db, 1, {
      email: 'till-owner@example.com',
      name: 'Ana',
      password: 'correct horse battery staple',
      role: 'owner',
    });
    for (const c of refused) {
      expect(await outcome(registerTerminal(db, 1, staff.id, { name: `Till${c}1` })), c.codePointAt(0)!.toString(16)).toMatch(
        /^invalid_request:name: must not contain control characters, line separators or bidi overrides/,
      );
    }
    expect((await registerTerminal(db, 1, staff.id, { name: 'Till 👩‍🍳 שלום' })).view.name).toBe('Till 👩‍🍳 שלום');
    expect(await db.prisma.terminal.count()).toBe(1);
  });

  it("a staff member's name (shown on the display and receipts): refused the same way", async () => {
    for (const c of refused) {
      expect(
        await outcome(
          createUserWithRole(db, 1, {
            email: `c${c.codePointAt(0)}@example.com`,
            name: `Ana${c}`,
            password: 'correct horse battery staple',
            role: 'cashier',
          }),
        ),
      ).toMatch(/^invalid_request:name: must not contain control characters/);
    }
    expect(
      (
        await createUserWithRole(db, 1, {
          email: 'zoe@example.com',
          name: 'Zoë 👩‍🍳',
          password: 'correct horse battery staple',
          role: 'cashier',
        })
      ).name,
    ).toBe('Zoë 👩‍🍳');
  });

  it('an item name of a payment request (signed into the envelope): 400 naming the field', () => {
    const req = (name: string) => ({ items: [{ type: 'item', id: 'sku', name, count: 1, unit: '2' }] });
    for (const c of refused) {
      let err: unknown = null;
      try {
        priceRequest(req(`Tea${c}`), MAINNET);
      } catch (e) {
        err = e;
      }
      expect(err, c.codePointAt(0)!.toString(16)).toBeInstanceOf(InvalidRequestError);
      expect(String((err as Error).message) + JSON.stringify(err)).toMatch(/items\[0\]\.name/);
    }
    expect(() => priceRequest(req('Tea 👩‍🍳 שלום'), MAINNET)).not.toThrow();
  });
});
