// Email receipts against a REAL SMTP server (smtp-server, in-process) and a real PGlite database
// with the project's migrations: the message arrives with the right envelope, headers and both
// parts built from the receipt model; refusals, auth failures and an unreachable server are a
// 502 smtp_failed with the server's reason; bad addresses 400; the password never leaks.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createServer } from 'node:net';
import { randomBytes } from 'node:crypto';
import { type Db } from '@/lib/db';
import { openTestDb } from '../helpers/stores';
import { MAINNET } from '@/lib/doge';
import { createPayment } from '@/lib/payments/creation/create-payment';
import { activeRelayKey } from '@/lib/payments/creation/relay-key';
import { emailReceipt as sendReceipt, type ReceiptActor } from '@/lib/receipts/send';
import { errorAnswer } from '@/lib/api/error-table';
import { readSettings, updateSettings } from '@/lib/backoffice/settings';
import { emailProblem } from '@/lib/receipts/address';
import { recentSales } from '@/lib/pos/catalog';
import { loadReceipt } from '@/lib/receipts/receipt';
import { freePort } from '../helpers/ports';
import { saveOutcome } from '@/lib/rates/store';
import { DEFAULT_RATE_SOURCES } from '@/lib/rates/config';
import { parseDecimal } from '@/lib/money';
import { DGUB } from '../helpers/keys';
import { startSmtp, type Mail } from '../helpers/smtp';

/** The HTTP answer the receipt route gives: 202 with the result, or a refusal through the one error table. */
async function emailReceipt(
  ...args: Parameters<typeof sendReceipt>
): Promise<{ status: number; body: Record<string, unknown>; headers?: Record<string, string> }> {
  try {
    return { status: 202, body: { ...(await sendReceipt(...args)) } };
  } catch (e) {
    const r = errorAnswer(e);
    const retry = r.headers.get('retry-after');
    return { status: r.status, body: await r.json(), headers: retry ? { 'Retry-After': retry } : {} };
  }
}

const PASSWORD = 'sup3r-s3cret-pw';
let db: Db;

const inbox: Mail[] = [];

/** The decoded text of a MIME part of the given type (quoted-printable or base64). */
function part(raw: string, type: string): string | null {
  const i = raw.toLowerCase().indexOf(`content-type: ${type}`);
  if (i < 0) return null;
  const rest = raw.slice(i);
  const head = rest.slice(0, rest.search(/\r?\n\r?\n/));
  let body = rest.slice(head.length).replace(/^\r?\n\r?\n/, '');
  body = body.slice(0, body.search(/\r?\n--/) >= 0 ? body.search(/\r?\n--/) : undefined);
  if (/quoted-printable/i.test(head)) {
    const bytes = body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, h) => String.fromCharCode(parseInt(h, 16)));
    return Buffer.from(bytes, 'latin1').toString('utf8');
  }
  if (/base64/i.test(head)) return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  return body;
}

/** A header's value, unfolded, with RFC 2047 encoded words decoded. */
function header(raw: string, name: string): string {
  const head = raw.slice(0, raw.search(/\r?\n\r?\n/));
  const m = new RegExp(`^${name}: (.*(?:\\r?\\n[ \\t].*)*)`, 'im').exec(head);
  if (!m) return '';
  return m[1]
    .replace(/\r?\n[ \t]/g, ' ')
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?UTF-8\?Q\?([^?]*)\?=/gi, (_, q: string) =>
      Buffer.from(
        q.replace(/_/g, ' ').replace(/=([0-9A-F]{2})/gi, (_x, h: string) => String.fromCharCode(parseInt(h, 16))),
        'latin1',
      ).toString('utf8'),
    );
}

let TXID = '';
async function paidPayment(items: unknown[], createdBy: string | null = null, extra: Record<string, unknown> = {}) {
  TXID = randomBytes(32).toString('hex');
  const r = await createPayment(
    { storeId: 1, db, network: MAINNET, publicUrl: 'http://127.0.0.1:1', apiKeyId: null, userId: createdBy, idempotencyKey: null },
    JSON.stringify({ items, ...extra }),
  );
  const id = (r.body as { id: string }).id;
  await db.prisma.payment.update({
    where: { id },
    data: {
      status: 'confirmed',
      txid: TXID,
      confirmations: 1,
      confirmedAt: new Date('2026-11-24T19:07:00Z'),
      createdAt: new Date('2026-11-24T19:05:00Z'),
    },
  });
  return id;
}

const owner: ReceiptActor = { storeId: 1, key: 'user:owner', userId: 'owner', role: 'owner' };
const env = (port: number, extra: Record<string, string> = {}) => ({
  SMTP_URL: `smtp://127.0.0.1:${port}`,
  SMTP_FROM: 'Corner Shop <receipts@shop.example>',
  ...extra,
});

beforeAll(async () => {
  db = await openTestDb();
  await db.prisma.store.upsert({
    where: { id: 1 },
    update: { storeXpub: DGUB, name: 'Corner Shop', timezone: 'America/New_York' },
    create: { id: 1, storeXpub: DGUB, name: 'Corner Shop', timezone: 'America/New_York' },
  });
  await activeRelayKey(db, 1);
}, 60_000);
afterAll(async () => db?.close());

describe('email receipts through a real SMTP server', () => {
  it('delivers a text and an HTML part with the lines (tax included), the total, the store zone and the txid', async () => {
    const smtp = await startSmtp(inbox, {
      authOptional: false,
      onAuth(auth, _s, cb) {
        if (auth.username === 'shop' && auth.password === PASSWORD) return cb(null, { user: 'shop' });
        cb(new Error('Invalid username or password'));
      },
    });
    try {
      const id = await paidPayment(
        [
          { type: 'item', id: 'c', name: 'Coffee', count: 2, unit: '10.5', tax: '1.05' },
          { type: 'fee', id: 'svc', name: 'Service', count: 1, unit: '1' },
          { type: 'discount', id: 'd', name: 'Discount', count: 1, unit: '-2' },
          { type: 'donation', id: 'tip', name: 'Tip', count: 1, unit: '0.5' },
        ],
        null,
        { fiat_total: '3.10', fiat_currency: 'USD' },
      );
      const a = await emailReceipt(db, id, { email: 'ann@example.com' }, owner, {
        env: env(smtp.port, { SMTP_URL: `smtp://shop:${PASSWORD}@127.0.0.1:${smtp.port}` }),
      });
      expect(a.status).toBe(202);
      expect(a.body).toMatchObject({ sent: true, to: 'ann@example.com' });
      const m = inbox.at(-1)!;
      expect(m.to).toEqual(['ann@example.com']);
      expect(m.from).toBe('receipts@shop.example');
      expect(m.raw).toMatch(/^From: Corner Shop <receipts@shop\.example>/m);
      expect(m.raw).toMatch(/^To: ann@example\.com/m);
      expect(header(m.raw, 'Subject')).toBe(`Receipt from Corner Shop (${id.slice(0, 10)})`);
      const text = part(m.raw, 'text/plain')!;
      const html = part(m.raw, 'text/html')!;
      expect(text).toContain('Coffee');
      expect(text).toContain('2 × 10.5, incl. tax 1.05  = 22.05 DOGE');
      expect(text).toContain('= -2 DOGE');
      expect(text).toContain('Total: 21.55 DOGE'); // 22.05 + 1 - 2 + 0.5
      expect(text).toContain('≈ 3.10 USD');
      expect(text).toContain('24 Nov 2026, 14:05 EST');
      expect(text).toContain(TXID);
      expect(html).toContain('22.05 DOGE');
      expect(html).toContain('21.55 DOGE');
      expect(html).toContain('14:05 EST');
      expect(html).toContain(TXID);
    } finally {
      await smtp.close();
    }
  });

  it('a USD-priced sale: each line in USD as priced with its tax, adding up to fiat_total; then the DOGE paid and the locked rate', async () => {
    const smtp = await startSmtp(inbox);
    // The store prices in USD; every default rate source answered 0.07 USD per DOGE just now.
    await db.prisma.store.update({ where: { id: 1 }, data: { pricingCurrency: 'USD' } });
    const rateAt = new Date();
    for (const name of DEFAULT_RATE_SOURCES.split(','))
      await saveOutcome(db, 'USD', name, { ok: true, value: parseDecimal('0.07') }, rateAt);
    try {
      const id = await paidPayment(
        [
          { type: 'item', id: 'MUF', name: 'Muffin', count: 3, unit: '1.99', tax: '0.48' },
          { type: 'item', id: 'TEA', name: 'Tea', count: 1, unit: '2.35', tax: '0.19' },
          { type: 'discount', id: 'disc', name: 'Discount', count: 1, unit: '-0.50' },
          { type: 'donation', id: 'tip', name: 'Tip', count: 1, unit: '1.00' },
        ],
        null,
        { currency: 'USD' },
      );
      const p = await db.prisma.payment.findUniqueOrThrow({ where: { id } });
      expect(p).toMatchObject({ fiatTotal: '9.49', fiatTax: '0.67', fiatCurrency: 'USD', rateValue: '0.07' });
      // The model: USD lines as priced (not re-derived from DOGE), summing to fiat_total.
      const r = (await loadReceipt(db, 1, id))!;
      expect(r.currency).toBe('USD');
      expect(r.lines.map((l) => [l.name, l.count, l.unit, l.tax, l.total])).toEqual([
        ['Muffin', 3, '1.99', '0.48', '6.45'],
        ['Tea', 1, '2.35', '0.19', '2.54'],
        ['Discount', null, '', '', '-0.50'],
        ['Tip', null, '', '', '1.00'],
      ]);
      expect(r.total).toBe('9.49');
      expect(r.taxes).toBe('0.67');
      // 1.99 / 0.07 = 28.428571428… → 28.42857143 per muffin (half-up), … : the DOGE actually asked
      expect(r.dogeTotal).toBe('135.57142858');
      expect(r.rate).toMatchObject({ value: '0.07', source: DEFAULT_RATE_SOURCES });
      const zoned = r.rate!.atText;
      expect(zoned).toMatch(/ (EST|EDT)$/); // the store's zone (America/New_York)

      const a = await emailReceipt(db, id, { email: 'usd@example.com' }, owner, { env: env(smtp.port) });
      expect(a.status).toBe(202);
      const m = inbox.at(-1)!;
      expect(m.to).toEqual(['usd@example.com']);
      const text = part(m.raw, 'text/plain')!;
      const html = part(m.raw, 'text/html')!;
      expect(text).toContain('3 × $1.99, incl. tax $0.48  = $6.45');
      expect(text).toContain('1 × $2.35, incl. tax $0.19  = $2.54');
      expect(text).toContain('= -$0.50');
      expect(text).toContain('= $1.00');
      expect(text).toContain('Total: $9.49');
      expect(text).toContain('of which tax: $0.67');
      expect(text).toContain('Paid 135.57142858 DOGE');
      expect(text).toContain(`at 1 DOGE = 0.07 USD (${DEFAULT_RATE_SOURCES}, ${zoned})`);
      expect(text).not.toMatch(/28\.42857143|85\.28571429/); // no DOGE line amounts on a USD receipt
      expect(text).not.toContain('≈');
      expect(html).toContain('3 × $1.99, incl. tax $0.48');
      expect(html).toContain('$6.45');
      expect(html).toContain('$9.49');
      expect(html).toContain('135.57142858 DOGE');
      expect(html).toContain('1 DOGE = 0.07 USD');
    } finally {
      await db.prisma.store.update({ where: { id: 1 }, data: { pricingCurrency: 'DOGE' } });
      await smtp.close();
    }
  });

  it('a server that refuses the recipient is a 502 smtp_failed with its reason', async () => {
    const smtp = await startSmtp(inbox, {
      onRcptTo(_a, _s, cb) {
        cb(Object.assign(new Error('Mailbox unavailable here'), { responseCode: 550 }));
      },
    });
    try {
      const id = await paidPayment([{ type: 'item', id: 'x', name: 'Tea', count: 1, unit: '3' }]);
      const a = await emailReceipt(db, id, { email: 'bob@example.com' }, owner, { env: env(smtp.port) });
      expect(a.status).toBe(502);
      expect(a.body.error).toBe('smtp_failed');
      expect(String(a.body.message)).toMatch(/Mailbox unavailable here/);
    } finally {
      await smtp.close();
    }
  });

  it('an authentication failure is a 502 and the password is in neither the answer nor the log', async () => {
    const smtp = await startSmtp(inbox, {
      authOptional: false,
      onAuth(_a, _s, cb) {
        cb(new Error('Bad credentials for shop'));
      },
    });
    const lines: string[] = [];
    const spy = vi.spyOn(process.stdout, 'write').mockImplementation(((s: string) => {
      lines.push(String(s));
      return true;
    }) as never);
    try {
      const id = await paidPayment([{ type: 'item', id: 'x', name: 'Tea', count: 1, unit: '3' }]);
      const a = await emailReceipt(db, id, { email: 'bob@example.com' }, owner, {
        env: env(smtp.port, { SMTP_URL: `smtp://shop:${PASSWORD}@127.0.0.1:${smtp.port}` }),
      });
      expect(a.status).toBe(502);
      expect(a.body.error).toBe('smtp_failed');
      expect(String(a.body.message)).toMatch(/EAUTH|auth|credentials/i);
      expect(JSON.stringify(a.body)).not.toContain(PASSWORD);
      expect(lines.join('')).toContain('receipt email failed');
      expect(lines.join('')).not.toContain(PASSWORD);
    } finally {
      spy.mockRestore();
      await smtp.close();
    }
  });

  it('an unreachable server is a 502 quickly', async () => {
    const port = await freePort(); // nothing listens there
    const id = await paidPayment([{ type: 'item', id: 'x', name: 'Tea', count: 1, unit: '3' }]);
    const a = await emailReceipt(db, id, { email: 'bob@example.com' }, owner, { env: env(port), timeoutMs: 1500 });
    expect(a.status).toBe(502);
    expect(a.body.error).toBe('smtp_failed');
    // a server that accepts the connection but never greets: the short timeout ends it
    const silent = createServer(() => {});
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', () => r()));
    try {
      const b = await emailReceipt(
        db,
        id,
        { email: 'bob@example.com' },
        { ...owner, key: 'user:other' },
        { env: env((silent.address() as { port: number }).port), timeoutMs: 1000 },
      );
      expect(b.status).toBe(502);
      expect(String(b.body.message)).toMatch(/timeout|greeting/i);
    } finally {
      silent.close();
    }
  }, 20_000);

  it('refuses bad addresses (400), unknown ids (404), unpaid payments (409), another cashier (404), no SMTP (503), and rations sends (429)', async () => {
    for (const bad of [
      'ann@example.com\r\nBcc: x@evil.example',
      'ann@example.com\u0000',
      'Ann <ann@example.com>',
      'ann',
      'ann@localhost',
      'ann@1.2.3.4',
      '"a b"@example.com',
      42,
    ]) {
      const a = await emailReceipt(db, 'whatever', { email: bad }, owner, { env: env(1) });
      expect(a.status, String(bad)).toBe(400);
      expect(a.body.error).toBe('invalid_request');
    }
    expect(emailProblem('ann.lee+shop@mail.example.co.uk')).toBeNull();
    expect((await emailReceipt(db, 'nope_nope', { email: 'a@example.com' }, owner, { env: env(1) })).status).toBe(404);

    const smtp = await startSmtp(inbox);
    try {
      const r = await createPayment(
        { storeId: 1, db, network: MAINNET, publicUrl: 'http://127.0.0.1:1', apiKeyId: null, userId: null, idempotencyKey: null },
        JSON.stringify({ items: [{ type: 'item', id: 'x', name: 'Tea', count: 1, unit: '3' }] }),
      );
      const unpaid = (r.body as { id: string }).id;
      expect((await emailReceipt(db, unpaid, { email: 'a@example.com' }, owner, { env: env(smtp.port) })).status).toBe(409);

      const u1 = await db.prisma.user.create({ data: { id: 'cashier-1', email: 'c1@shop.example', passwordHash: 'x', role: 'cashier' } });
      const mine = await paidPayment([{ type: 'item', id: 'x', name: 'Tea', count: 1, unit: '3' }], u1.id);
      const other = await paidPayment([{ type: 'item', id: 'x', name: 'Tea', count: 1, unit: '3' }]);
      const cashier: ReceiptActor = { storeId: 1, key: 'user:cashier-1', userId: u1.id, role: 'cashier' };
      expect((await emailReceipt(db, other, { email: 'a@example.com' }, cashier, { env: env(smtp.port) })).status).toBe(404);
      expect((await emailReceipt(db, mine, { email: 'a@example.com' }, cashier, { env: env(smtp.port) })).status).toBe(202);
      expect((await emailReceipt(db, mine, { email: 'a@example.com' }, cashier, { env: {} })).status).toBe(503);

      // at most 5 per payment per hour (the limiter counts attempts, sent or not)
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++)
        statuses.push(
          (await emailReceipt(db, mine, { email: 'a@example.com' }, { ...cashier, key: `user:x${i}` }, { env: env(smtp.port) })).status,
        );
      expect(statuses).toEqual([202, 202, 202, 202, 429]); // the 6th attempt on this payment within the hour
      const limited = await emailReceipt(db, mine, { email: 'a@example.com' }, cashier, { env: env(smtp.port) });
      expect(limited.status).toBe(429);
      expect(Number(limited.headers?.['Retry-After'])).toBeGreaterThan(0);
    } finally {
      await smtp.close();
    }
  });
});

describe('receipt settings', () => {
  it('timezone is validated; the SMTP password is masked and kept when the masked URL comes back', async () => {
    await expect(updateSettings(db, 1, MAINNET, { timezone: 'Mars/Olympus' })).rejects.toThrow(/timezone: must be an IANA time zone/);
    expect((await updateSettings(db, 1, MAINNET, { timezone: 'Europe/Berlin' })).timezone_in_force).toBe('Europe/Berlin');
    await expect(updateSettings(db, 1, MAINNET, { smtp_url: 'http://x' })).rejects.toThrow(/smtp_url: must start with smtp/);
    await expect(updateSettings(db, 1, MAINNET, { smtp_from: 'a@b.example\r\nBcc: x@y.example' })).rejects.toThrow(/smtp_from/);
    const v = await updateSettings(db, 1, MAINNET, {
      smtp_url: `smtps://shop:${PASSWORD}@mail.example:465`,
      smtp_from: 'Shop <r@shop.example>',
    });
    expect(JSON.stringify(v)).not.toContain(PASSWORD);
    expect(v).toMatchObject({
      smtp_url: 'smtps://shop:••••••••@mail.example:465',
      smtp_password_set: true,
      smtp_from: 'Shop <r@shop.example>',
    });
    await updateSettings(db, 1, MAINNET, { smtp_url: v.smtp_url.replace('mail.example', 'mail2.example') });
    expect((await db.prisma.store.findUniqueOrThrow({ where: { id: 1 } })).smtpUrl).toBe(`smtps://shop:${PASSWORD}@mail2.example:465`);
    expect(JSON.stringify(await readSettings(db, 1))).not.toContain(PASSWORD);
    await updateSettings(db, 1, MAINNET, { smtp_url: '', timezone: '' });
  });
});

describe("the till's today, in the store's zone", () => {
  it("today's sales start at midnight in the store's zone and show its times", async () => {
    await db.prisma.store.update({ where: { id: 1 }, data: { timezone: 'America/New_York' } });
    const u = await db.prisma.user.create({ data: { id: 'cashier-tz', email: 'tz@shop.example', passwordHash: 'x', role: 'cashier' } });
    const before = await paidPayment([{ type: 'item', id: 'x', name: 'Tea', count: 1, unit: '3' }], u.id);
    const after = await paidPayment([{ type: 'item', id: 'x', name: 'Tea', count: 1, unit: '3' }], u.id);
    // 22:00 EST on 23 Nov (03:00Z on the 24th: "today" in UTC) and 00:30 EST on the 24th
    await db.prisma.payment.update({ where: { id: before }, data: { createdAt: new Date('2026-11-24T03:00:00Z') } });
    await db.prisma.payment.update({ where: { id: after }, data: { createdAt: new Date('2026-11-24T05:30:00Z') } });
    const sales = await recentSales(db, 1, u.id, new Date('2026-11-24T06:00:00Z'));
    expect(sales.map((x) => x.id)).toEqual([after]);
    expect(sales[0].timeText).toBe('00:30 EST');
    const r = await loadReceipt(db, 1, after);
    expect(r).toMatchObject({ timezone: 'America/New_York', createdAtText: '24 Nov 2026, 00:30 EST' });
  });
});
