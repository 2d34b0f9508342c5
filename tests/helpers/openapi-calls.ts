// Requests to a running app as the openapi-*.test.ts files make them: each answer checked against
// docs/openapi.yaml by the file's OpenApiChecker (tests/helpers/openapi.ts), so every answer is
// validated and counted as seen; the devnet app two of those files start; and which of the
// document's (method, path, status) each file must exercise. Each file runs in its own process
// with its own checker, so the document is shared out between them: each file checks its share,
// and the shares add up to the whole document.
import { randomBytes } from 'node:crypto';
import { expect, type RunnerTask, type RunnerTestFile, type RunnerTestSuite } from 'vitest';
import { MAX_BODY_BYTES } from '@/lib/api/body';
import { parseKoinu } from '@/lib/money';
import type { WalletUtxo } from '@/lib/wallet';
import { devnetAppEnv, startApp, type AppServer } from './app-server';
import { request } from './client';
import { createStoreKey } from './hosted-stores';
import type { DemoUtxoJson } from './json-shapes';
import { testXpub } from './keys';
import { documentedResponses, type OpenApiChecker, type OpenApiDoc } from './openapi';
import { signIn } from './sessions';
import type { CreatedPaymentJson } from './vendor-client';

/** A payment id no payment has. */
export const UNKNOWN_ID = 'AAAAAAAAAAAAAAAAAAAAAA';
/** A body one byte over the limit every JSON route applies (docs/api.md#errors: 413). */
export const TOO_BIG = 'x'.repeat(MAX_BODY_BYTES + 1);
/** The bootstrap key of the app a file starts (a fresh one per process). */
export const OPENAPI_KEY = 'openapi-key-' + randomBytes(12).toString('hex');
/** The devnet app's owner (ADMIN_EMAIL) and the password every user of it gets. */
export const OPENAPI_OWNER = 'owner@shop.test';
export const OPENAPI_PASSWORD = 'long enough password';

/** A payment as POST /api/v1/payments made it (and made.paid with the tx that paid it). */
export type MadeJson = CreatedPaymentJson & { txid?: string };

export interface Call {
  key?: string | null; // default: the bootstrap key; null: no Authorization header
  body?: unknown; // objects are sent as JSON, strings as they are
  query?: string;
  headers?: Record<string, string>;
}

export const expectStatus = (r: { status: number; body: unknown }, status: number) => expect(r.status, JSON.stringify(r.body)).toBe(status);

/** A payment with every kind of line and field: 2 coffees, a fee, a stamp and a data output, 23.05 DOGE. */
export const FULL_PAYMENT = {
  items: [
    { type: 'item', id: 'SKU-1', name: 'Coffee', count: 2, unit: '10.5', tax: '1.05' },
    { type: 'fee', id: 'svc', name: 'Service', count: 1, unit: '1' },
    { type: 'signing', id: 'stamp', name: 'Loyalty stamp' },
  ],
  outputs: [{ type: 'data', data: '68656c6c6f' }],
  vendor_order_id: 'INV-42',
  order_reference: 'A073',
  note: 'Thanks!',
  fiat_total: '5.00',
  fiat_tax: '0.23',
  fiat_currency: 'USD',
  timeout: 900,
  meta: { 'com.example.table': '7' },
};

/** Two coffees at `unit` DOGE each, with tax. */
export const coffee = (unit = '10.5') => ({ items: [{ type: 'item', id: 'SKU-1', name: 'Coffee', count: 2, unit, tax: '1.05' }] });

/** The checked calls to the app at `base()`, whose bootstrap key is OPENAPI_KEY. */
export function openApiCalls(checker: OpenApiChecker, base: () => string) {
  /** One request to a documented operation, checked against the document; the parsed body, read as `T`. */
  async function call<T = unknown>(method: string, template: string, params: Record<string, string> = {}, c: Call = {}) {
    const path = template.replace(/\{(\w+)\}/g, (_, k) => encodeURIComponent(params[k]));
    const key = c.key === undefined ? OPENAPI_KEY : c.key;
    const r = await request(base(), key === null ? null : { key }, method, path + (c.query ? `?${c.query}` : ''), c.body, {
      headers: c.headers,
    });
    return { status: r.status, headers: r.headers, body: checker.check<T>(method, template, r) };
  }

  /** POST /api/v1/payments with `body` (expecting 201); the payment made. */
  async function create(body: Record<string, unknown>, key = OPENAPI_KEY) {
    const r = await call<MadeJson>('POST', '/api/v1/payments', {}, { key, body });
    expectStatus(r, 201);
    return r.body;
  }

  /** Opens the SSE stream; returns the checked answer and, for a 200, the events read until `end` or `untilEvents`. */
  async function stream(id: string, key: string, untilEvents = Infinity) {
    const ac = new AbortController();
    const r = await fetch(`${base()}/api/v1/payments/${id}/events`, { headers: { Authorization: `Bearer ${key}` }, signal: ac.signal });
    if (r.status !== 200) {
      const text = await r.text();
      return {
        status: r.status,
        body: checker.check('GET', '/api/v1/payments/{id}/events', { status: r.status, headers: r.headers, text }),
        events: [],
        abort: () => ac.abort(),
      };
    }
    const events: { event: string; data: Record<string, unknown> }[] = [];
    let text = '';
    if (untilEvents > 0) {
      const reader = r.body!.getReader();
      const dec = new TextDecoder();
      const deadline = Date.now() + 20_000;
      while (Date.now() < deadline && events.length < untilEvents && !events.some((e) => e.event === 'end')) {
        const { done, value } = await reader.read();
        if (done) break;
        text += dec.decode(value, { stream: true });
        const blocks = text.split('\n\n');
        text = blocks.pop()!;
        for (const b of blocks) {
          const ev = /^event: (.+)$/m.exec(b)?.[1];
          const data = /^data: (.+)$/m.exec(b)?.[1];
          if (ev && data) events.push({ event: ev, data: JSON.parse(data) });
        }
      }
      ac.abort();
    }
    checker.check('GET', '/api/v1/payments/{id}/events', { status: 200, headers: r.headers, text: '' });
    // `response` keeps a stream held open (untilEvents 0) referenced: fetch cancels the unread body
    // of a Response that is garbage-collected, which closed a held stream and freed its slot (the
    // 11th-stream test once got 200 instead of 429).
    return { status: 200, body: null, events, abort: () => ac.abort(), response: r };
  }

  return { call, create, stream };
}

/** The devnet app with its owner signed in (`owner`: the headers of the owner's JSON requests). */
export interface OpenApiDevnet {
  app: AppServer;
  owner: Record<string, string>;
  /** A fresh API key with exactly these scopes, made by the owner in the back office. */
  apiKey(scopes: string[]): Promise<string>;
  /** The demo wallet's address, key and coins (GET /demo/api/wallet), as the wallet SDK takes them. */
  demoWallet(): Promise<DemoWallet>;
}
export interface DemoWallet {
  address: string;
  wif: string;
  utxos: WalletUtxo[];
}

/** Starts the devnet app (regtest, blocks mined on demand) with OPENAPI_KEY and the owner, plus `env`. */
export async function startOpenApiDevnet(env: Record<string, string> = {}): Promise<OpenApiDevnet> {
  const app = await startApp(
    devnetAppEnv({
      STORE_XPUB: testXpub(17),
      BOOTSTRAP_API_KEY: OPENAPI_KEY,
      ADMIN_EMAIL: OPENAPI_OWNER,
      ADMIN_PASSWORD: OPENAPI_PASSWORD,
      ...env,
    }),
  );
  const session = await signIn(app.url, OPENAPI_OWNER, OPENAPI_PASSWORD);
  async function demoWallet(): Promise<DemoWallet> {
    const w = (await (await fetch(app.url + '/demo/api/wallet')).json()) as { address: string; wif: string; utxos: DemoUtxoJson[] };
    return {
      ...w,
      utxos: w.utxos.map((u) => ({ txid: u.txid, vout: u.vout, amount: parseKoinu(u.amount), script: u.script })),
    };
  }
  return {
    app,
    owner: { Cookie: session.cookie, 'X-CSRF-Token': session.csrf, 'Content-Type': 'application/json' },
    apiKey: (scopes) => createStoreKey(app.url, session, scopes),
    demoWallet,
  };
}

/** The files that share out the document; the `stores` operations are openapi-stores.test.ts's. */
export type OpenApiShare = 'payments' | 'settlement' | 'outages';
/** The till's and the back office's operations, which openapi-payments.test.ts calls with a session and a till. */
const TILL_TAGS = ['display', 'backoffice'];
/** What openapi-settlement.test.ts does with a payment once made. */
const SETTLEMENT = new Set([
  'POST /api/v1/payments/{id}/cancel',
  'POST /relay/pay',
  'POST /api/v1/payments/{id}/mark',
  'GET /api/v1/reports/sales',
  'POST /api/v1/payments/{id}/receipt',
  'GET /api/v1/events',
  'GET /api/v1/payments/{id}/events',
  'GET /invoices/{address}',
  'POST /api/v1/payments/{id}/refunds',
  'GET /api/v1/payments/{id}/refunds',
]);

/**
 * The (method, path, status) that openapi-<share>.test.ts must exercise. The shares do not overlap
 * and, with the `stores` operations, add up to the document: `outages` has the 429 and 503 answers
 * of every operation but the till's (only its app is rate-limited and has a database to stop) and
 * the rate of a configured source (only its app has one); `settlement` the other answers of the
 * operations above; `payments` all the rest.
 */
export function openApiShare(doc: OpenApiDoc, share: OpenApiShare): string[] {
  const till = new Set(documentedResponses(doc, (tags) => tags.some((t) => TILL_TAGS.includes(t))));
  const outage = (t: string) => (!till.has(t) && / (429|503)$/.test(t)) || t === 'GET /api/v1/rates 200';
  const of = (t: string): OpenApiShare =>
    outage(t) ? 'outages' : SETTLEMENT.has(t.slice(0, t.lastIndexOf(' '))) ? 'settlement' : 'payments';
  return documentedResponses(doc, (tags) => !tags.includes('stores')).filter((t) => of(t) === share);
}

/** What of `share` the checker has not seen answered. */
export const unexercised = (checker: OpenApiChecker, share: OpenApiShare): string[] =>
  openApiShare(checker.doc, share).filter((t) => !checker.seen.has(t));

/** The tests below `task`. */
const testsOf = (task: RunnerTask): RunnerTask[] => (task.type === 'suite' ? task.tasks.flatMap(testsOf) : [task]);

/**
 * An afterAll listener for a file's top level: the file's share was exercised. Held only when every
 * test of the file ran: a run narrowed with -t exercises less.
 */
export function expectShareExercised(checker: OpenApiChecker, share: OpenApiShare) {
  return ({}: object, file: Readonly<RunnerTestSuite | RunnerTestFile>) => {
    if (testsOf(file).every((t) => t.mode === 'run')) expect(unexercised(checker, share)).toEqual([]);
  };
}
