// lib/backoffice against a real (in-memory) PGlite database with the project's migrations:
// settings validation, icons, catalog, users and the last-owner rule, keys, invoice search,
// detail, export and sales per day, and node status.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Db } from '@/lib/db';
import { openTestDb } from '../helpers/stores';
import { MAINNET, REGTEST, hdFromSeed, derivePath, serializeXpub } from '@/lib/doge';
import { testXpub, DGUB } from '../helpers/keys';
import { createTestPayment } from '../helpers/payments';
import { activeRelayKey } from '@/lib/payments/creation/relay-key';
import { authenticateApiKey, authenticateUser, createSession, createUser, sessionUser } from '@/lib/auth';
import { readSettings, updateSettings, regenerateWebhookSecret, validateIcon, maskSecret } from '@/lib/backoffice/settings';
import { createProduct, updateProduct, listProducts, percentToBp, bpToPercent } from '@/lib/backoffice/catalog';
import { createUserWithRole, updateUser, listUserViews } from '@/lib/backoffice/users';
import { createApiKeyFor, listApiKeys, revokeKey, relayKeyView, rotateRelayKeyView } from '@/lib/backoffice/keys';
import {
  searchInvoices,
  parseInvoiceFilter,
  invoiceDetail,
  exportInvoicesCsv,
  exportInvoicesJson,
  csvField,
  redeliverEvent,
} from '@/lib/backoffice/invoices';
import { salesPerDay, chartBars } from '@/lib/backoffice/sales';
import { readNodeStatus } from '@/lib/backoffice/node-status';
import { publishChainState } from '@/lib/chain/chain-state';
import { BackofficeError } from '@/lib/backoffice/errors';
import { recentDeliveries } from '@/lib/backoffice/deliveries';
import { localDate, localDateTime } from '@/lib/time/zone';

const TPUB = testXpub(7);
const PNG_1PX = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
const URL_BASE = 'http://127.0.0.1:1';
let db: Db;

async function code(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return 'ok';
  } catch (e) {
    if (e instanceof BackofficeError) return `${e.code}:${e.message}`;
    throw e;
  }
}

/** A payment (expecting 201) of these lines and fields, on mainnet. */
const pay = (items: unknown[], extra: Record<string, unknown> = {}) =>
  createTestPayment<{ id: string; total: string }>(db, { items, extra, network: MAINNET, publicUrl: URL_BASE });

beforeAll(async () => {
  db = await openTestDb();
  await db.prisma.store.upsert({ where: { id: 1 }, update: { storeXpub: DGUB }, create: { id: 1, storeXpub: DGUB } });
  await activeRelayKey(db, 1);
}, 60_000);
afterAll(async () => db?.close());

describe('settings', () => {
  it('validates the receiving wallet for the network and keeps the rest unchanged', async () => {
    expect(await code(updateSettings(db, 1, MAINNET, { store_xpub: TPUB }))).toMatch(
      /^invalid_request:store_xpub: is not an account public key for mainnet/,
    );
    expect(await code(updateSettings(db, 1, REGTEST, { store_xpub: DGUB }))).toMatch(/^invalid_request:store_xpub/);
    expect(await code(updateSettings(db, 1, MAINNET, { store_address: 'mipcBbFg9gMiCh81Kj8tqqdgoZub1ZJRfn' }))).toMatch(
      /store_address: is not a valid mainnet address/,
    );
    expect((await readSettings(db, 1)).store_xpub).toBe(DGUB);
    const s = await updateSettings(db, 1, MAINNET, {
      name: ' Corner Café ',
      fee_per_kb: '0.02',
      timeout: 600,
      zero_conf_limit: '5',
      one_conf_limit: '10000',
      fiat_currency: 'EUR',
      fiat_rate: '0.15',
      tips_enabled: true,
    });
    expect(s).toMatchObject({
      name: 'Corner Café',
      fee_per_kb: '0.02',
      timeout: 600,
      zero_conf_limit: '5',
      one_conf_limit: '10000',
      fiat_currency: 'EUR',
      fiat_rate: '0.15',
      tips_enabled: true,
      store_xpub: DGUB,
    });
    const row = await db.prisma.store.findUniqueOrThrow({ where: { id: 1 } });
    expect(row.feePerKb).toBe(2_000_000n);
    expect(row.zeroConfLimit).toBe(500_000_000n);
  });

  it("keeps each account key's receive index when switching keys, so no address is reused", async () => {
    const other = serializeXpub(derivePath(hdFromSeed(new Uint8Array(32).fill(5), MAINNET), "m/44'/3'/0'"));
    expect(other).toMatch(/^dgub/);
    await db.prisma.store.update({ where: { id: 1 }, data: { nextAddressIndex: 7 } });
    expect((await updateSettings(db, 1, MAINNET, { store_xpub: other })).store_xpub).toBe(other);
    expect((await db.prisma.store.findUniqueOrThrow({ where: { id: 1 } })).nextAddressIndex).toBe(0);
    await db.prisma.store.update({ where: { id: 1 }, data: { nextAddressIndex: 2 } });
    await updateSettings(db, 1, MAINNET, { store_xpub: DGUB });
    expect((await db.prisma.store.findUniqueOrThrow({ where: { id: 1 } })).nextAddressIndex).toBe(7);
    await updateSettings(db, 1, MAINNET, { store_xpub: other });
    expect((await db.prisma.store.findUniqueOrThrow({ where: { id: 1 } })).nextAddressIndex).toBe(2);
    await updateSettings(db, 1, MAINNET, { store_xpub: DGUB });
    await db.prisma.store.update({ where: { id: 1 }, data: { nextAddressIndex: 0 } });
  });

  it('refuses bad values, naming the field', async () => {
    for (const [patch, field] of [
      [{ fee_per_kb: '0.000000001' }, 'fee_per_kb'],
      [{ fee_per_kb: '0' }, 'fee_per_kb'],
      [{ timeout: 5 }, 'timeout'],
      [{ max_size: 10 }, 'max_size'],
      [{ zero_conf_limit: '20000' }, 'zero_conf_limit'],
      [{ one_conf_required: 9 }, 'one_conf_required'],
      [{ fiat_currency: 'euro' }, 'fiat_currency'],
      [{ fiat_rate: '-1' }, 'fiat_rate'],
      [{ webhook_url: 'ftp://x' }, 'webhook_url'],
      [{ webhook_url: 'https://u:p@x.test/' }, 'webhook_url'],
      [{ webhook_secret: 'x' }, ''],
      [{ icon: '<script>' }, 'icon'],
    ] as const) {
      expect(await code(updateSettings(db, 1, MAINNET, patch)), JSON.stringify(patch)).toMatch(new RegExp(`^invalid_request:${field}`));
    }
  });

  it('never returns the webhook secret whole; regenerating makes a fresh one', async () => {
    const a = await regenerateWebhookSecret(db, 1);
    const b = await regenerateWebhookSecret(db, 1);
    expect(a).toMatch(/^whsec_[\w-]{32}$/);
    expect(b).not.toBe(a);
    const s = await readSettings(db, 1);
    expect(JSON.stringify(s)).not.toContain(b);
    expect(s.webhook_secret_masked).toBe(maskSecret(b));
    expect(s.webhook_secret_masked).toMatch(/^whsec_•+..$/);
  });

  it('accepts emoji and real small images as icons, refuses markup, SVG, fakes and oversize images', () => {
    expect(validateIcon('icon', '☕', 100)).toBe('☕');
    expect(validateIcon('icon', PNG_1PX, 1000)).toBe(PNG_1PX);
    expect(() => validateIcon('icon', 'data:image/svg+xml;base64,PHN2Zz4=', 1000)).toThrow(/PNG, JPEG, GIF or WebP/);
    expect(() => validateIcon('icon', 'data:image/png;base64,' + Buffer.from('GIF89a').toString('base64'), 1000)).toThrow(/not a PNG/);
    expect(() => validateIcon('icon', PNG_1PX, 50)).toThrow(/too large/);
    expect(() => validateIcon('icon', '<img src=x>', 100)).toThrow(/emoji/);
  });
});

describe('catalog', () => {
  it('creates, edits, archives and restores products; SKUs are unique', async () => {
    expect(percentToBp('tax_rate', '7.5')).toBe(750);
    expect(bpToPercent(750)).toBe('7.5');
    expect(() => percentToBp('tax_rate', '100.5')).toThrow(/at most 100/);
    const p = await createProduct(db, 1, { sku: 'COF-1', name: 'Coffee', price: '10.5', tax_rate: '7.5', icon: '☕' });
    expect(p).toMatchObject({ sku: 'COF-1', name: 'Coffee', price: '10.5', tax_rate: '7.5', icon: '☕', archived: false });
    expect(await code(createProduct(db, 1, { sku: 'COF-1', name: 'Again', price: '1' }))).toMatch(/^conflict:sku/);
    expect(await code(createProduct(db, 1, { sku: 'X', name: 'Free', price: '0' }))).toMatch(/^invalid_request:price/);
    expect(await code(createProduct(db, 1, { sku: 'X', name: 'N', price: '1', bogus: 1 }))).toMatch(/unknown field/);
    const img = await createProduct(db, 1, { sku: 'BUN-1', name: 'Bun', price: '3', icon: PNG_1PX });
    expect(img.icon).toBe(PNG_1PX);
    const edited = await updateProduct(db, 1, p.id, { price: '11', name: 'Flat white' });
    expect(edited).toMatchObject({ price: '11', name: 'Flat white', sku: 'COF-1' });
    await updateProduct(db, 1, p.id, { archived: true });
    expect((await listProducts(db, 1)).map((x) => x.sku)).toEqual(['BUN-1']);
    expect((await listProducts(db, 1, { includeArchived: true })).map((x) => x.sku).sort()).toEqual(['BUN-1', 'COF-1']);
    await updateProduct(db, 1, p.id, { archived: false });
    expect((await listProducts(db, 1)).length).toBe(2);
    expect(await code(updateProduct(db, 1, 'nope', { name: 'x' }))).toMatch(/^not_found/);
  });
});

describe('users', () => {
  it('creates users with roles, changes roles and disables, but always keeps an active owner', async () => {
    const owner = await createUser(db, { storeId: 1, email: 'owner@shop.test', password: 'long enough password', role: 'owner' });
    const cashier = await createUserWithRole(db, 1, { email: 'Cash@Shop.test', password: 'long enough password', role: 'cashier' });
    expect(cashier).toMatchObject({ email: 'cash@shop.test', role: 'cashier', disabled: false });
    expect(await code(createUserWithRole(db, 1, { email: 'cash@shop.test', password: 'long enough password', role: 'cashier' }))).toMatch(
      /^conflict/,
    );
    expect(await code(createUserWithRole(db, 1, { email: 'x@shop.test', password: 'short', role: 'cashier' }))).toMatch(
      /^invalid_request:password/,
    );
    expect(await code(createUserWithRole(db, 1, { email: 'x@shop.test', password: 'long enough password', role: 'admin' }))).toMatch(
      /^invalid_request:role/,
    );
    expect(await code(updateUser(db, 1, owner.id, owner.id, { role: 'manager' }))).toMatch(/^conflict:.*at least one active owner/);
    const promoted = await updateUser(db, 1, owner.id, cashier.id, { role: 'owner' });
    expect(promoted.role).toBe('owner');
    expect(await code(updateUser(db, 1, owner.id, owner.id, { disabled: true }))).toMatch(/^conflict/);
    expect((await updateUser(db, 1, owner.id, owner.id, { role: 'manager' })).role).toBe('manager');
    expect(await code(updateUser(db, 1, owner.id, cashier.id, { disabled: true }))).toMatch(/at least one active owner/);
    expect((await listUserViews(db, 1)).filter((u) => u.role === 'owner' && !u.disabled)).toHaveLength(1);
    // An owner sets a new password: the old one stops working and the user's sessions end.
    const cashierSession = await createSession(db, cashier.id);
    expect(await code(updateUser(db, 1, owner.id, cashier.id, { password: 'short' }))).toMatch(/^invalid_request:password/);
    await updateUser(db, 1, owner.id, cashier.id, { password: 'a brand new password' });
    expect(await authenticateUser(db, 'cash@shop.test', 'long enough password')).toBeNull();
    expect(await authenticateUser(db, 'cash@shop.test', 'a brand new password')).toMatchObject({ id: cashier.id });
    expect(await sessionUser(db, cashierSession.token)).toBeNull();
  });
});

describe('keys', () => {
  it('shows an API key secret once, lists only its prefix, and revokes it', async () => {
    const owner = (await listUserViews(db, 1))[0];
    const k = await createApiKeyFor(db, 1, owner.id, { name: 'Shop', scopes: ['invoices:read'] });
    expect(k.secret).toMatch(/^ck_/);
    expect(await authenticateApiKey(db, k.secret)).toMatchObject({ scopes: ['invoices:read'] });
    const listed = await listApiKeys(db, 1);
    expect(JSON.stringify(listed)).not.toContain(k.secret);
    expect(listed.find((x) => x.id === k.id)).toMatchObject({ name: 'Shop', prefix: k.secret.slice(0, 9), revoked_at: null });
    expect(await code(createApiKeyFor(db, 1, owner.id, { name: 'x', scopes: ['root'] }))).toMatch(/^invalid_request:scopes/);
    await revokeKey(db, 1, k.id);
    expect(await authenticateApiKey(db, k.secret)).toBeNull();
    expect(await code(revokeKey(db, 1, k.id))).toMatch(/^conflict/);
    expect(await code(revokeKey(db, 1, 'missing'))).toMatch(/^not_found/);
  });

  it('rotates the relay key and keeps the old one as retired', async () => {
    const before = await relayKeyView(db, 1);
    const after = await rotateRelayKeyView(db, 1);
    expect(after.pubkey).toMatch(/^[0-9a-f]{64}$/);
    expect(after.pubkey).not.toBe(before.pubkey);
    expect(after.retired[0].pubkey).toBe(before.pubkey);
    expect((await activeRelayKey(db, 1)).pubkey).toBe(after.pubkey);
  });
});

describe('invoices', () => {
  const ids: string[] = [];
  beforeAll(async () => {
    ids.push(
      (
        await pay([{ type: 'item', id: 'a', name: 'Coffee', count: 2, unit: '1.5', tax: '0.15' }], {
          vendor_order_id: 'INV-1',
          note: 'table 4',
        })
      ).id,
    );
    ids.push((await pay([{ type: 'item', id: 'b', name: 'Tea', count: 1, unit: '2' }], { vendor_order_id: 'INV-2, "quoted"' })).id);
    ids.push((await pay([{ type: 'item', id: 'c', name: 'Cake', count: 1, unit: '4' }], { vendor_order_id: '=HYPERLINK("x")' })).id);
    // INV-1 is paid and confirmed; one event with a failed delivery attempt.
    await db.prisma.payment.update({
      where: { id: ids[0] },
      data: { status: 'confirmed', txid: 'ab'.repeat(32), confirmations: 1, confirmedAt: new Date(), acceptedAt: new Date() },
    });
    const ev = await db.prisma.vendorEvent.create({
      data: { id: 'evt_1', type: 'payment.confirmed', paymentId: ids[0], body: '{}', deliveryState: 'failed', attempts: 1 },
    });
    await db.prisma.webhookAttempt.create({
      data: { eventSeq: ev.seq, attempt: 1, url: 'https://hooks.test/x', statusCode: 500, error: 'HTTP 500', durationMs: 12 },
    });
  });

  it('filters by status, text and date, newest first, in cursor pages', async () => {
    const all = await searchInvoices(db, 1, parseInvoiceFilter(new URLSearchParams()));
    expect(all.invoices.map((i) => i.id)).toEqual([...ids].reverse());
    expect((await searchInvoices(db, 1, parseInvoiceFilter(new URLSearchParams('status=confirmed')))).invoices.map((i) => i.id)).toEqual([
      ids[0],
    ]);
    expect((await searchInvoices(db, 1, parseInvoiceFilter(new URLSearchParams('q=TABLE')))).invoices.map((i) => i.id)).toEqual([ids[0]]);
    expect(
      (await searchInvoices(db, 1, parseInvoiceFilter(new URLSearchParams(`q=${'ab'.repeat(32)}`)))).invoices.map((i) => i.id),
    ).toEqual([ids[0]]);
    const today = new Date().toISOString().slice(0, 10);
    expect((await searchInvoices(db, 1, parseInvoiceFilter(new URLSearchParams(`from=${today}&to=${today}`)))).invoices).toHaveLength(3);
    expect((await searchInvoices(db, 1, parseInvoiceFilter(new URLSearchParams('to=2020-01-01')))).invoices).toHaveLength(0);
    const p1 = await searchInvoices(db, 1, parseInvoiceFilter(new URLSearchParams('limit=2')));
    expect(p1.invoices.map((i) => i.id)).toEqual([ids[2], ids[1]]);
    const p2 = await searchInvoices(db, 1, parseInvoiceFilter(new URLSearchParams(`limit=2&cursor=${p1.next_cursor}`)));
    expect(p2.invoices.map((i) => i.id)).toEqual([ids[0]]);
    expect(p2.next_cursor).toBeNull();
    expect(() => parseInvoiceFilter(new URLSearchParams('status=paid'))).toThrow(/status/);
    expect(() => parseInvoiceFilter(new URLSearchParams('limit=500'))).toThrow(/limit/);
    expect(() => parseInvoiceFilter(new URLSearchParams('from=yesterday'))).toThrow(/from/);
    await expect(searchInvoices(db, 1, parseInvoiceFilter(new URLSearchParams('cursor=bogus')))).rejects.toThrow(/cursor/);
  });

  it('shows the detail with lines, outputs and the delivery log, and requeues an event', async () => {
    const d = await invoiceDetail(db, 1, ids[0], URL_BASE);
    expect(d).toMatchObject({
      id: ids[0],
      status: 'confirmed',
      total: '3.15',
      taxes: '0.15',
      txid: 'ab'.repeat(32),
      vendor_order_id: 'INV-1',
    });
    expect(d.lines).toEqual([{ type: 'item', id: 'a', name: 'Coffee', icon: '', count: 2, unit: '1.5', total: '3', tax: '0.15' }]);
    expect(d.outputs[0]).toMatchObject({ type: 'p2pkh', amount: '3.15' });
    expect(d.deliveries).toHaveLength(1);
    expect(d.deliveries[0]).toMatchObject({ type: 'payment.confirmed', state: 'failed', attempts: 1 });
    expect(d.deliveries[0].log[0]).toMatchObject({ attempt: 1, status_code: 500, error: 'HTTP 500', url: 'https://hooks.test/x' });
    await redeliverEvent(db, 1, d.deliveries[0].seq);
    expect((await db.prisma.vendorEvent.findUniqueOrThrow({ where: { id: 'evt_1' } })).deliveryState).toBe('pending');
    expect(await code(redeliverEvent(db, 1, '999999'))).toMatch(/^not_found/);
    expect(await code(invoiceDetail(db, 1, 'missing', URL_BASE))).toMatch(/^not_found/);
  });

  it('exports CSV (escaped, formula-safe) and JSON matching the vendor API body', async () => {
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('=1+1')).toBe("'=1+1");
    expect(csvField('-5')).toBe('-5');
    const csv = await exportInvoicesCsv(db, 1, {});
    const lines = csv.trimEnd().split('\r\n');
    expect(lines[0]).toBe(
      'id,created_at,status,exception,expired,total,fiat_total,fiat_currency,vendor_order_id,order_reference,address,txid,confirmed,required,created_local,timezone,amount_refunded,refunds,tender,terminal',
    );
    expect(lines).toHaveLength(4);
    expect(lines[1]).toContain(`${ids[2]},`);
    expect(lines[1]).toContain(`"'=HYPERLINK(""x"")"`);
    expect(lines[2]).toContain('"INV-2, ""quoted"""');
    expect(lines[3]).toMatch(
      new RegExp(
        `^${ids[0]},[^,]+,confirmed,,false,3.15,,,INV-1,,D\\w+,${'ab'.repeat(32)},1,0,\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d,UTC,0,,doge,$`,
      ),
    ); // required 0: under the 5 DOGE 0-conf limit set above
    // the local-time column in the store's zone, next to the UTC instant
    const ny = (await exportInvoicesCsv(db, 1, {}, new Date(), 'America/New_York')).trimEnd().split('\r\n')[3].split(',');
    expect(ny.at(-5)).toBe('America/New_York');
    expect(ny.at(-6)).toBe(localDateTime(new Date(ny[1]), 'America/New_York'));
    expect(ny.slice(-4)).toEqual(['0', '', 'doge', '']); // amount_refunded, refunds (none), tender, terminal (none)
    // A cash sale rung up on a till: its tender and the till's name (escaped like any text).
    await db.prisma.payment.update({ where: { id: ids[0] }, data: { tender: 'cash', terminal: '=Patio, "back"' } });
    const till = (await exportInvoicesCsv(db, 1, {})).trimEnd().split('\r\n')[3];
    await db.prisma.payment.update({ where: { id: ids[0] }, data: { tender: 'doge', terminal: null } });
    expect(till.endsWith(`,UTC,0,,cash,"'=Patio, ""back"""`)).toBe(true);
    const json = (await exportInvoicesJson(db, 1, parseInvoiceFilter(new URLSearchParams('status=confirmed')), URL_BASE)) as Array<
      Record<string, unknown>
    >;
    expect(json).toHaveLength(1);
    expect(json[0]).toMatchObject({ id: ids[0], status: 'confirmed', total: '3.15', confirmed: 1, required: 0, txid: 'ab'.repeat(32) });
  });

  it('sums paid sales per UTC day, zero-filled, and lays out bars', async () => {
    const days = await salesPerDay(db, 1, 7);
    expect(days).toHaveLength(7);
    expect(days[6]).toMatchObject({ day: new Date().toISOString().slice(0, 10), count: 1, total: '3.15' });
    expect(days.slice(0, 6).every((d) => d.count === 0 && d.total === '0')).toBe(true);
    const { bars, max } = chartBars(days, 700, 200);
    expect(max).toBe(315_000_000n);
    expect(bars[6].height).toBeCloseTo(196, 5);
    expect(bars[0].height).toBe(0);
    expect(bars[6].label).toBe(`${days[6].day}: 3.15 DOGE in 1 sale`);
    // days in the store's zone: in UTC+14 today is the local date there
    const far = await salesPerDay(db, 1, 7, new Date(), 'Pacific/Kiritimati');
    expect(far[6]).toMatchObject({ day: localDate(new Date(), 'Pacific/Kiritimati'), count: 1, total: '3.15' });
    expect(far.slice(0, 6).every((d) => d.count === 0)).toBe(true);
  });
});

describe('node status', () => {
  it("reads the worker's published chain state", async () => {
    expect(await readNodeStatus(db)).toMatchObject({ tip_height: 0, synced: false, peers: 0, progress: 0 });
    await publishChainState(db, { tip_height: 500, tip_hash: 'ff'.repeat(32), synced: false, peers: 3, best_known_height: 1000 });
    expect(await readNodeStatus(db)).toMatchObject({
      tip_height: 500,
      tip_hash: 'ff'.repeat(32),
      synced: false,
      peers: 3,
      target_height: 1000,
      progress: 0.5,
    });
    await publishChainState(db, { tip_height: 1000, synced: true });
    expect((await readNodeStatus(db)).progress).toBe(1);
  });
});

describe('payment count shards', () => {
  it('stay exact over inserts, multi-row inserts and deletes', async () => {
    const sum = async () => Number((await db.prisma.paymentCount.aggregate({ _sum: { n: true } }))._sum.n);
    const real = async () => db.prisma.payment.count();
    expect(await sum()).toBe(await real());
    for (let i = 0; i < 20; i++) await pay([{ type: 'item', id: 'x', name: 'X', count: 1, unit: '1' }]);
    expect(await sum()).toBe(await real());
    await db.prisma
      .$executeRawUnsafe(`INSERT INTO payment (id,total,address,timeout_sec,fee_per_kb,max_size,required_confirmations,issued_at,expires_at,envelope,payload_hash,pubkey,signature,relay_token)
      SELECT 'bulk'||g, 1, 'a', 900, 1, 1, 1, now(), now(), '{}', 'h', 'k', 's', 't' FROM generate_series(1, 500) g`);
    expect(await sum()).toBe(await real());
    await db.prisma.payment.deleteMany({ where: { id: { startsWith: 'bulk' } } });
    expect(await sum()).toBe(await real());
  });
});

describe('delivery log', () => {
  it('lists the latest webhook attempts with their event and invoice', async () => {
    const log = await recentDeliveries(db, 1, 5);
    expect(log).toHaveLength(1);
    expect(log[0]).toMatchObject({
      event_type: 'payment.confirmed',
      attempt: 1,
      status_code: 500,
      error: 'HTTP 500',
      url: 'https://hooks.test/x',
    });
    expect(log[0].payment_id).toMatch(/^[\w-]{22,}$/);
  });
});
