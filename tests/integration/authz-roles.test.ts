// Authorisation and input limits (docs/security.md) on a store with every role, on the real built
// app (devnet, embedded PGlite, an http PUBLIC_URL): who may do what on POST /api/v1/payments
// (custom outputs need payments:outputs, a lowered confirmation policy payments:policy), cashiers
// confined to their own sales, URL, control-character, dust and overflow validation, and the
// owner-only receiving wallet, relay key, users, API keys, rescan and audit log.
// authz-rpc-store.test.ts has the limits of a store that is not on devnet.
import { beforeAll, describe, expect, it } from 'vitest';
import { REGTEST, encodeAddress } from '@/lib/doge';
import { testXpub } from '../helpers/keys';
import { until } from '../helpers/wait';
import { sharedShop, type SharedShop } from '../helpers/shared-app';
import { expectRefused, item, roleClient, type PaymentJson, type Role } from '../helpers/authz';
import type { AuditEntryJson, EventJson, ListedPaymentJson, OutputJson, UserJson, WalletRescanJson } from '../helpers/json-shapes';

// The store runs on devnet (regtest), so that it is ready and its till may charge.
const XPUB = testXpub(8);
// Another account key of the same network: "the manager's own wallet".
const OTHER_XPUB = testXpub(9);
const PASSWORD = 'authz suite password 7';
const ELSEWHERE = encodeAddress('p2pkh', new Uint8Array(20).fill(7), REGTEST);

/** The store's settings as /api/admin/settings answers (the fields read here). */
interface SettingsJson {
  name: string;
  store_xpub: string;
  store_address: string | null;
}

describe('on a store with every role (PGlite, http PUBLIC_URL)', () => {
  let app: SharedShop;
  const c = roleClient(() => app.url, 'authz.test', PASSWORD);
  const { as } = c;
  beforeAll(async () => {
    app = await sharedShop('authz.test', { xpub: XPUB, password: PASSWORD });
    // The till charges only on a ready store (sessions' POST /api/v1/payments).
    const health = await c.ready();
    expect(health.ready, JSON.stringify(health)).toBe(true);
    await c.signInAll();
  }, 120_000);

  describe('finding 1: custom p2pkh outputs need payments:outputs', () => {
    const steal = { items: [item('25')], outputs: [{ type: 'p2pkh', address: ELSEWHERE, amount: '25' }] };

    it('no web-app role may route a sale to an address of its choosing', async () => {
      for (const role of ['cashier', 'manager', 'owner'] as const) {
        expectRefused(await as(role, 'POST', '/api/v1/payments', steal), 403, 'forbidden', 'outputs[0].address');
      }
      // Nothing was created for the attempts.
      const list = await as<{ payments: ListedPaymentJson[] }>('owner', 'GET', '/api/v1/payments?limit=100');
      expect(
        list.body.payments.filter((p: ListedPaymentJson) => p.payment.outputs.some((o: OutputJson) => o.address === ELSEWHERE)),
      ).toEqual([]);
    });

    it('nor a key with payments:write, nor the owner-scoped bootstrap key; a key created with payments:outputs may', async () => {
      expectRefused(await as(await c.key(['payments:write']), 'POST', '/api/v1/payments', steal), 403, 'forbidden', 'outputs[0].address');
      expectRefused(await as({ key: app.key }, 'POST', '/api/v1/payments', steal), 403, 'forbidden', 'outputs[0].address');
      const ok = await as<PaymentJson>(await c.key(['payments:write', 'payments:outputs']), 'POST', '/api/v1/payments', steal);
      expect(ok.status, ok.text).toBe(201);
      expect(ok.body.payment.outputs).toEqual([{ type: 'p2pkh', address: ELSEWHERE, amount: '25' }]);
    });

    it("a sale to the store's own fresh address, with data outputs, needs no extra scope", async () => {
      const r = await as('cashier', 'POST', '/api/v1/payments', { items: [item('3')], outputs: [{ type: 'data', data: '6869' }] });
      expect(r.status, r.text).toBe(201);
    });
  });

  describe('finding 6: lowering required_confirmations needs payments:policy', () => {
    // The default policy: one confirmation up to 10,000 DOGE.
    const big = (required: number) => ({ items: [item('5000')], required_confirmations: required });

    it('a cashier, a manager or a payments:write key cannot get 0-conf on a 5,000 DOGE sale', async () => {
      for (const who of ['cashier', 'manager'] as const) {
        expectRefused(await as(who, 'POST', '/api/v1/payments', big(0)), 403, 'forbidden', 'required_confirmations');
      }
      expectRefused(
        await as(await c.key(['payments:write']), 'POST', '/api/v1/payments', big(0)),
        403,
        'forbidden',
        'required_confirmations',
      );
    });

    it('the policy itself or more confirmations are fine for anyone; the owner and a payments:policy key may lower it', async () => {
      for (const n of [1, 3]) {
        const r = await as<PaymentJson>('cashier', 'POST', '/api/v1/payments', big(n));
        expect(r.status, r.text).toBe(201);
        expect((await as<PaymentJson>('cashier', 'GET', `/api/v1/payments/${r.body.id}`)).body.required).toBe(n);
      }
      const owner = await as('owner', 'POST', '/api/v1/payments', big(0));
      expect(owner.status, owner.text).toBe(201);
      const k = await as<PaymentJson>(
        await c.key(['payments:write', 'payments:read', 'payments:policy']),
        'POST',
        '/api/v1/payments',
        big(0),
      );
      expect(k.status, k.text).toBe(201);
      expect((await as<PaymentJson>({ key: app.key }, 'GET', `/api/v1/payments/${k.body.id}`)).body.required).toBe(0);
    });
  });

  describe('finding 13: a cashier sees and cancels only its own sales', () => {
    let mine: string;
    let theirs: string;
    let byKey: string;
    beforeAll(async () => {
      mine = (await as<PaymentJson>('cashier', 'POST', '/api/v1/payments', { items: [item('4')], order_reference: 'MINE' })).body.id;
      theirs = (await as<PaymentJson>('cashier2', 'POST', '/api/v1/payments', { items: [item('5')], order_reference: 'THEIRS' })).body.id;
      byKey = (await as<PaymentJson>({ key: app.key }, 'POST', '/api/v1/payments', { items: [item('6')] })).body.id;
      expect([mine, theirs, byKey].every(Boolean)).toBe(true);
    });

    it('lists only its own payments; managers and owners list all', async () => {
      const ids = async (who: Role) =>
        (await as<{ payments: ListedPaymentJson[] }>(who, 'GET', '/api/v1/payments?limit=100')).body.payments.map(
          (p: ListedPaymentJson) => p.id,
        );
      const cashier = await ids('cashier');
      expect(cashier).toContain(mine);
      expect(cashier).not.toContain(theirs);
      expect(cashier).not.toContain(byKey);
      expect(await ids('cashier2')).toEqual([theirs]);
      for (const who of ['manager', 'owner'] as const) expect(await ids(who)).toEqual(expect.arrayContaining([mine, theirs, byKey]));
      // The vendor event log is confined the same way.
      await as('cashier2', 'POST', `/api/v1/payments/${theirs}/cancel`, {});
      const ev = await as<{ events: EventJson[] }>('cashier', 'GET', '/api/v1/events?limit=500');
      expect(ev.status).toBe(200);
      expect(ev.body.events.some((e: EventJson) => e.payment?.id === theirs)).toBe(false);
      expect(
        (await as<{ events: EventJson[] }>('manager', 'GET', '/api/v1/events?limit=500')).body.events.some(
          (e: EventJson) => e.payment?.id === theirs,
        ),
      ).toBe(true);
    });

    it("gets 404 for another's payment: reading, its event stream, cancelling and its receipt", async () => {
      for (const id of [byKey, theirs]) {
        expect((await as('cashier', 'GET', `/api/v1/payments/${id}`)).status).toBe(404);
        expect((await as('cashier', 'GET', `/api/v1/payments/${id}/events`)).status).toBe(404);
        expect((await as('cashier', 'POST', `/api/v1/payments/${id}/cancel`, {})).status).toBe(404);
        expect((await as('cashier', 'GET', `/pos/receipt/${id}`)).status).toBe(404);
      }
      expect((await as<PaymentJson>('owner', 'GET', `/api/v1/payments/${byKey}`)).body.status).toBe('unpaid'); // not cancelled
    });

    it('reopens, follows, prints and cancels its own', async () => {
      expect((await as('cashier', 'GET', `/api/v1/payments/${mine}`)).status).toBe(200);
      const ctl = new AbortController();
      const feed = await fetch(`${app.url}/api/v1/payments/${mine}/events`, {
        headers: { Cookie: c.who.cashier.cookie },
        signal: ctl.signal,
      });
      expect(feed.status).toBe(200);
      ctl.abort();
      const receipt = await as('cashier', 'GET', `/pos/receipt/${mine}`);
      expect(receipt.status).toBe(200);
      expect(receipt.text).toContain('MINE');
      expect((await as('cashier', 'POST', `/api/v1/payments/${mine}/cancel`, {})).status).toBe(200);
      expect((await as('manager', 'GET', `/pos/receipt/${theirs}`)).status).toBe(200);
    });
  });

  describe('finding 14: URLs, control characters, dust and overflow', () => {
    it.each([
      [{ items: [item('1')], vendor_order_url: 'javascript:alert(document.cookie)' }, 'vendor_order_url'],
      [{ items: [item('1')], vendor_order_url: 'data:text/html,<script>alert(1)</script>' }, 'vendor_order_url'],
      [{ items: [item('1', { icon: 'javascript:alert(1)' })] }, 'items[0].icon'],
      [{ items: [item('1', { icon: '//evil.example/x.png' })] }, 'items[0].icon'],
      [{ items: [item('1')], note: 'thanks\u0000' }, 'note'],
      [{ items: [item('1', { name: 'Bell\u0007' })] }, 'items[0].name'],
      [{ items: [item('1')], order_reference: 'A\u001b[31m' }, 'order_reference'],
      [{ items: [item('1')], vendor_order_id: 'x\u007f' }, 'vendor_order_id'],
      [{ items: [item('1')], meta: { 'com.example.t': 'a\u0085b' } }, 'meta.com.example.t'],
      [{ items: [item('0.00000001')] }, 'items'],
      [{ items: [item('0.00999999')] }, 'items'],
      [
        {
          items: [
            { type: 'item', id: 'a', name: 'A', count: 10, unit: '10000000000' },
            { type: 'discount', id: 'd', name: 'D', count: 9, unit: '-10000000000' },
          ],
        },
        'items[0].total',
      ],
      [{ items: [{ type: 'item', id: 'a', name: 'A', count: 1000, unit: '9999999999' }] }, 'items[0].total'],
    ])('%j => 400 naming %s', async (body, field) => {
      expectRefused(await as({ key: app.key }, 'POST', '/api/v1/payments', body), 400, 'invalid_request', field);
    });

    it('a p2pkh output below 0.01 DOGE is refused even with payments:outputs', async () => {
      const k = await c.key(['payments:write', 'payments:outputs']);
      const r = await as(k, 'POST', '/api/v1/payments', {
        items: [item('1.005')],
        outputs: [
          { type: 'p2pkh', address: ELSEWHERE, amount: '1' },
          { type: 'p2pkh', address: ELSEWHERE, amount: '0.005' },
        ],
      });
      expectRefused(r, 400, 'invalid_request', 'outputs[1].amount');
    });

    it('accepts https URLs, and http ones while PUBLIC_URL is http', async () => {
      const r = await as({ key: app.key }, 'POST', '/api/v1/payments', {
        items: [item('0.01', { icon: 'https://shop.example/c.png' }), item('1', { id: 'b', icon: 'http://shop.example/b.png' })],
        vendor_order_url: 'https://shop.example/orders/1',
        note: 'tab\tand\nnewline are not allowed either',
      });
      expectRefused(r, 400, 'invalid_request', 'note');
      const ok = await as<PaymentJson>({ key: app.key }, 'POST', '/api/v1/payments', {
        items: [item('0.01', { icon: 'https://shop.example/c.png' }), item('1', { id: 'b', icon: 'http://shop.example/b.png' })],
        vendor_order_url: 'https://shop.example/orders/1',
      });
      expect(ok.status, ok.text).toBe(201);
      expect(ok.body.total).toBe('1.01');
    });
  });

  describe('finding 9: only the owner changes the receiving wallet; every change is audited', () => {
    it('a manager cannot switch the receiving wallet (xpub or fixed address) but still edits the rest', async () => {
      expectRefused(await as('manager', 'PATCH', '/api/admin/settings', { store_xpub: OTHER_XPUB }), 403, 'forbidden', 'store_xpub');
      expectRefused(
        await as('manager', 'PATCH', '/api/admin/settings', { store_xpub: '', store_address: ELSEWHERE }),
        403,
        'forbidden',
        'store_xpub',
      );
      expect((await as<SettingsJson>('owner', 'GET', '/api/admin/settings')).body.store_xpub).toBe(XPUB);
      // The settings form sends every field back: an unchanged wallet is not a change.
      const cur = (await as<SettingsJson>('manager', 'GET', '/api/admin/settings')).body;
      const ok = await as<SettingsJson>('manager', 'PATCH', '/api/admin/settings', {
        name: 'Audited shop',
        store_xpub: cur.store_xpub,
        store_address: cur.store_address,
      });
      expect(ok.status, ok.text).toBe(200);
      expect(ok.body.name).toBe('Audited shop');
    });

    it('the owner may, and the audit log (owner only) records settings, wallet, user, key and relay-key changes without secrets', async () => {
      const owner = await as('owner', 'PATCH', '/api/admin/settings', { store_xpub: OTHER_XPUB });
      expect(owner.status, owner.text).toBe(200);
      expect((await as('owner', 'PATCH', '/api/admin/settings', { store_xpub: XPUB })).status).toBe(200);
      const secret = (await as<{ secret: string }>('manager', 'POST', '/api/admin/settings/webhook-secret', {})).body.secret;
      expect(secret).toMatch(/^whsec_/);
      const k = await as<{ id: string; secret: string }>('owner', 'POST', '/api/admin/api-keys', {
        name: 'audited key',
        scopes: ['payments:read'],
      });
      expect((await as('owner', 'DELETE', `/api/admin/api-keys/${k.body.id}`)).status).toBe(200);
      expect((await as('owner', 'POST', '/api/admin/relay-key', {})).status).toBe(200);
      const users = (await as<{ users: UserJson[] }>('owner', 'GET', '/api/admin/users')).body.users;
      const cashier2 = users.find((u) => u.email === 'cashier2@authz.test');
      expect((await as('owner', 'PATCH', `/api/admin/users/${cashier2?.id}`, { password: 'a brand new password 9' })).status).toBe(200);

      for (const who of ['manager', 'cashier'] as const) expect((await as(who, 'GET', '/api/admin/audit')).status).toBe(403);
      expect((await as(null, 'GET', '/api/admin/audit')).status).toBe(401);
      const a = await as<{ entries: AuditEntryJson[] }>('owner', 'GET', '/api/admin/audit');
      expect(a.status).toBe(200);
      const entries: AuditEntryJson[] = a.body.entries;
      for (const e of entries) {
        expect(Object.keys(e).sort()).toEqual(['action', 'at', 'changes', 'user']);
        expect(new Date(e.at).toISOString()).toBe(e.at);
      }
      const ats = entries.map((e) => e.at);
      expect([...ats].sort().reverse()).toEqual(ats); // newest first
      const actions = entries.map((e) => e.action);
      expect(actions.slice(0, 7)).toEqual([
        'user.update',
        'relay_key.rotate',
        'api_key.revoke',
        'api_key.create',
        'webhook_secret.regenerate',
        'wallet.update',
        'wallet.update',
      ]);
      expect(actions).toContain('settings.update');
      expect(actions.filter((x) => x === 'user.create')).toHaveLength(3);
      const wallet = entries.find((e) => e.action === 'wallet.update')!;
      expect(wallet.user).toBe('owner@authz.test');
      expect(wallet.changes).toEqual({ store_xpub: { from: OTHER_XPUB, to: XPUB } });
      const named = entries.find((e) => e.action === 'settings.update')!;
      expect(named.user).toBe('manager@authz.test');
      expect(named.changes).toEqual({ name: { from: app.name, to: 'Audited shop' } });
      expect(entries.find((e) => e.action === 'webhook_secret.regenerate')!.user).toBe('manager@authz.test');
      expect(entries.find((e) => e.action === 'api_key.create')!.changes).toMatchObject({ name: 'audited key', scopes: ['payments:read'] });
      expect(entries[0]!.changes).toMatchObject({ email: 'cashier2@authz.test', password: 'changed' });
      // Never a secret: webhook secret, key secret, passwords or their hashes.
      for (const s of [secret, k.body.secret, 'a brand new password 9', PASSWORD, 'scrypt$']) expect(a.text).not.toContain(s);
      // Shown in the back office, to the owner only.
      const page = await as('owner', 'GET', '/admin/audit');
      expect(page.status).toBe(200);
      expect(page.text).toContain('wallet.update');
      expect((await as('manager', 'GET', '/admin/audit')).status).toBe(307);
    });

    it('relay key, users and API keys stay owner-only', async () => {
      expect((await as('manager', 'POST', '/api/admin/relay-key', {})).status).toBe(403);
      expect((await as('manager', 'POST', '/api/admin/users', { email: 'x@authz.test', password: PASSWORD, role: 'owner' })).status).toBe(
        403,
      );
      expect((await as('manager', 'POST', '/api/admin/api-keys', { name: 'x', scopes: ['payments:outputs'] })).status).toBe(403);
    });

    it("the wallet rescan and birthday are owner-only; on devnet the owner's rescan runs to 100%", async () => {
      for (const who of ['manager', 'cashier'] as const) {
        expect((await as(who, 'POST', '/api/admin/rescan', { from: 0 })).status).toBe(403);
        expect((await as(who, 'PATCH', '/api/admin/node', { wallet_birthday: 0 })).status).toBe(403);
      }
      expect((await as(null, 'POST', '/api/admin/rescan', { from: 0 })).status).toBe(401);
      expect((await as('owner', 'POST', '/api/admin/rescan', { from: 0, to: 5 })).body).toMatchObject({
        error: 'invalid_request',
        message: expect.stringMatching(/unknown field\(s\): to/),
      });
      const r = await as('owner', 'POST', '/api/admin/rescan', { from: 0 });
      expect(r.status, r.text).toBe(202);
      const done = await until(
        async () => (await as<{ wallet: WalletRescanJson }>('manager', 'GET', '/api/admin/node')).body.wallet,
        (w: WalletRescanJson) => w?.rescan?.running === false,
        30_000,
      );
      expect(done).toMatchObject({ scanned_from: 0, rescan: { from: 0, percent: 100, error: null, reason: 'operator' } });
      expect(done.rescan.blocks).toBe(done.rescan.target + 1);
      expect((await as<{ entries: AuditEntryJson[] }>('owner', 'GET', '/api/admin/audit')).body.entries[0]).toMatchObject({
        action: 'wallet.rescan',
        user: 'owner@authz.test',
        changes: { from: 0, from_height: 0 },
      });
    });
  });
});
