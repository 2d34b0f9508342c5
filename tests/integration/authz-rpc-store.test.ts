// Authorisation and input limits (docs/security.md) on a store that is not on devnet: the real
// built app with the rpc chain backend (embedded PGlite, an https PUBLIC_URL, MAX_OPEN_PAYMENTS=3).
// /demo and its API do not exist there, payment URLs must be https, and at most MAX_OPEN_PAYMENTS
// payments wait unpaid at once. authz-roles.test.ts has who may do what on a store with every role.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { DGUB } from '../helpers/keys';
import { startApp, type AppServer } from '../helpers/app-server';
import { appClient } from '../helpers/client';
import { expectRefused, item, type PaymentJson } from '../helpers/authz';
import type { ErrorJson } from '../helpers/json-shapes';

const KEY = 'authz-test-key-' + randomBytes(12).toString('hex');

describe('on an rpc-backed store (PGlite, https PUBLIC_URL, MAX_OPEN_PAYMENTS=3)', () => {
  let app: AppServer;
  const { req: as } = appClient(() => app.url, '');
  beforeAll(async () => {
    app = await startApp({
      CHAIN_BACKEND: 'rpc',
      DOGE_RPC_URL: 'http://user:pass@127.0.0.1:9',
      PUBLIC_URL: 'https://shop.example',
      STORE_XPUB: DGUB,
      BOOTSTRAP_API_KEY: KEY,
      MAX_OPEN_PAYMENTS: '3',
      RATE_LIMIT_RPS: '0',
    });
  }, 120_000);
  afterAll(async () => app?.stop());

  it('finding 16: /demo and every /demo/api route answer 404', async () => {
    for (const [method, path] of [
      ['GET', '/demo/wallet'],
      ['GET', '/demo'],
      ['GET', '/demo/api/wallet'],
      ['POST', '/demo/api/wallet'],
      ['PUT', '/demo/api/wallet'],
      ['POST', '/demo/api/mine'],
      ['GET', '/demo/api/mine'],
      ['DELETE', '/demo/api/mine'],
      ['GET', '/demo/api/nothing'],
    ]) {
      const r = await fetch(app.url + path, {
        method,
        headers: { Accept: 'text/html' },
        body: method === 'GET' || method === 'HEAD' ? undefined : '{"blocks":1}',
      });
      expect(r.status, `${method} ${path}`).toBe(404);
      const text = await r.text();
      // the 404 page carries the message catalog ("Pay with the demo wallet"), never the wallet itself
      expect(text, `${method} ${path}`).not.toMatch(/wif|wallet-balance|Demo wallet<\/h1>/i);
    }
  });

  it('finding 14: only https:// URLs while PUBLIC_URL is https', async () => {
    expectRefused(
      await as({ key: KEY }, 'POST', '/api/v1/payments', { items: [item('1', { icon: 'http://shop.example/c.png' })] }),
      400,
      'invalid_request',
      'items[0].icon',
    );
    expectRefused(
      await as({ key: KEY }, 'POST', '/api/v1/payments', { items: [item('1')], vendor_order_url: 'http://shop.example/o/1' }),
      400,
      'invalid_request',
      'vendor_order_url',
    );
  });

  it('finding 15: at most MAX_OPEN_PAYMENTS open unpaid payments, 429 beyond; a cancelled one frees a place', async () => {
    const made: string[] = [];
    for (let i = 0; i < 3; i++) {
      const r = await as<PaymentJson>({ key: KEY }, 'POST', '/api/v1/payments', {
        items: [item('2', { icon: 'https://shop.example/c.png' })],
        vendor_order_url: 'https://shop.example/o/1',
      });
      expect(r.status, r.text).toBe(201);
      made.push(r.body.id);
    }
    const over = await as<ErrorJson>({ key: KEY }, 'POST', '/api/v1/payments', { items: [item('2')] });
    expect(over.status, over.text).toBe(429);
    expect(over.body.error).toBe('too_many_open_payments');
    expect(over.body.message).toMatch(/MAX_OPEN_PAYMENTS/);
    expect((await as({ key: KEY }, 'POST', `/api/v1/payments/${made[0]}/cancel`, {})).status).toBe(200);
    expect((await as({ key: KEY }, 'POST', '/api/v1/payments', { items: [item('2')] })).status).toBe(201);
    expect((await as({ key: KEY }, 'POST', '/api/v1/payments', { items: [item('2')] })).status).toBe(429);
  });
});
