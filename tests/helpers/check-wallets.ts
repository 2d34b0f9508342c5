// Wallets for the wallet check's suite (docs/wallet-check.md#testing-a-wallet-in-the-suite): lib/wallet
// as shipped, and wallets broken on purpose, each with one flaw seen in wallets in the wild. A
// broken wallet is lib/wallet's own pieces with one step skipped or done wrong.
import { hexToBytes } from '@noble/hashes/utils.js';
import { pubkeyHash15, schnorrVerify, sha256d, decodeH, type ConnectPayment } from '@/lib/connect';
import { parseKoinu } from '@/lib/money';
import type { Db } from '@/lib/db';
import type { ChainBackend } from '@/lib/chain/backend';
import { REGTEST } from '@/lib/doge';
import { loadEnvelope, queryStatus, submitPayment as relaySubmit } from '@/lib/relay';
import { checkEnvelope, walletCheckRelay, type RelayPortContext } from '@/lib/wallet-check';
import { assertNotExpired, buildPaymentTx, parseWalletPayment, payUri, readConnectQr, type WalletUtxo } from '@/lib/wallet';

export type Flaw =
  | 'trusts_qr' // skips the signature check when the payload pays what the QR code says
  | 'price_update' // skips the signature check when the payload's amount differs from the QR code's (takes it for a price update)
  | 'no_h_check' // never compares SHA-256 of the key with h
  | 'h_prefix' // compares only as many bytes as h has (the Android wallet)
  | 'no_expiry' // never checks issued + timeout
  | 'any_version' // ignores the envelope's version
  | 'no_schema' // pays whatever JSON the payload holds
  | 'broadcasts' // never calls /relay/pay: broadcasts the tx itself
  | 'drops_data'; // leaves out data outputs

export interface Coins {
  network: 'regtest';
  /** A coin to pay from, not spent before. */
  next(): WalletUtxo;
  /** Marks a coin spent (by a tx that reached the node). */
  spend(u: WalletUtxo): void;
  wif: string;
}

export interface WalletEnv {
  fetch: typeof fetch;
  coins: Coins;
  /** Broadcasts a raw tx on the node, as a wallet talking to its own node does. */
  broadcast(hex: string): Promise<void>;
}

export type Outcome = { paid: boolean; error?: string };

/** lib/wallet as shipped. */
export async function sdkWallet(uri: string, env: WalletEnv): Promise<Outcome> {
  const coin = env.coins.next();
  try {
    await payUri(uri, {
      allowHttp: true,
      fetch: env.fetch,
      retry: { attempts: 1 },
      network: env.coins.network,
      utxos: [coin],
      keys: [env.coins.wif],
    });
    env.coins.spend(coin);
    return { paid: true };
  } catch (e) {
    return { paid: false, error: (e as Error).message };
  }
}

/** The QR code as the flawed wallet reads it: lenient about h's length only with h_prefix. */
function readQr(uri: string, flaw: Flaw): { url: string; h: Uint8Array; address?: string; amount?: bigint } {
  if (flaw !== 'h_prefix') {
    const qr = readConnectQr(uri);
    return { url: 'http://' + qr.trimmedUrl, h: qr.hash15, address: qr.address, amount: qr.amountKoinu };
  }
  try {
    const qr = readConnectQr(uri);
    return { url: 'http://' + qr.trimmedUrl, h: qr.hash15, address: qr.address, amount: qr.amountKoinu };
  } catch {
    const u = new URL(uri.replace(/^dogecoin:/, 'http://x/'));
    const h = Buffer.from(u.searchParams.get('h') ?? '', 'base64url');
    try {
      decodeH(u.searchParams.get('h') ?? '');
    } catch {
      /* the flaw: any length */
    }
    return {
      url: 'http://' + (u.searchParams.get('dc') ?? ''),
      h: new Uint8Array(h),
      address: u.pathname.slice(1),
      amount: parseKoinu(u.searchParams.get('amount') ?? '0'),
    };
  }
}

const pays = (p: { outputs: { address?: string; amount?: string }[] }, address?: string, amount?: bigint) =>
  Array.isArray(p.outputs) && p.outputs.some((o) => o.address === address && o.amount !== undefined && parseKoinu(o.amount) === amount);

/** Verifies the envelope as lib/wallet does, except for the one step the flaw gets wrong. Throws to refuse. */
function verifyWithFlaw(env: Record<string, string>, qr: ReturnType<typeof readQr>, flaw: Flaw): ConnectPayment {
  if (env.version !== '1.0' && flaw !== 'any_version') throw new Error('bad version');
  const pubkey = hexToBytes(env.pubkey);
  const hash = pubkeyHash15(pubkey);
  if (flaw === 'h_prefix') {
    if (!qr.h.length || !qr.h.every((b, i) => b === hash[i])) throw new Error('h does not match');
  } else if (flaw !== 'no_h_check' && !hash.every((b, i) => b === qr.h[i])) throw new Error('h does not match');
  const payload = new Uint8Array(Buffer.from(env.payload, 'base64'));
  const json = JSON.parse(new TextDecoder().decode(payload));
  if (!schnorrVerify(hexToBytes(env.sig), sha256d(payload), pubkey)) {
    const matchesQr = pays(json, qr.address, qr.amount);
    const skip = (flaw === 'trusts_qr' && matchesQr) || (flaw === 'price_update' && qr.address !== undefined && !matchesQr);
    if (!skip) throw new Error('bad signature');
  }
  const parsed = parseWalletPayment(json);
  if (!parsed.success && flaw !== 'no_schema') throw new Error('bad payment');
  const payment = (parsed.success ? parsed.data : { ...json, items: json.items ?? [] }) as ConnectPayment;
  if (flaw !== 'no_expiry') assertNotExpired(payment);
  return payment;
}

/** A wallet with one flaw: pays what lib/wallet would refuse in that one way, or pays wrongly. */
export async function flawedWallet(flaw: Flaw, uri: string, env: WalletEnv): Promise<Outcome> {
  try {
    const qr = readQr(uri, flaw);
    const res = await env.fetch(qr.url, { method: 'GET' });
    if (!res.ok) throw new Error(`envelope: HTTP ${res.status}`);
    const payment = verifyWithFlaw(JSON.parse(await res.text()), qr, flaw);
    const asked = flaw === 'drops_data' ? { ...payment, outputs: payment.outputs.filter((o) => o.type !== 'data') } : payment;
    const coin = env.coins.next();
    const tx = buildPaymentTx(asked, { network: env.coins.network, utxos: [coin], keys: [env.coins.wif] });
    if (flaw === 'broadcasts') await env.broadcast(tx.hex);
    else {
      // Posted as is: lib/wallet's client would itself refuse an expired payment.
      const r = await env.fetch(String(payment.relay).replace(/\/+$/, '') + '/pay', {
        method: 'POST',
        body: JSON.stringify({ id: payment.id, tx: tx.hex }),
      });
      if (r.status !== 200) throw new Error(`relay: HTTP ${r.status} ${await r.text()}`);
    }
    env.coins.spend(coin);
    return { paid: true };
  } catch (e) {
    return { paid: false, error: (e as Error).message };
  }
}

/** The cases each broken wallet must fail, and no other. */
export const FAILS: Record<Flaw, readonly string[]> = {
  trusts_qr: ['altered_signature'],
  price_update: ['changed_payload'],
  no_h_check: ['wrong_h'],
  h_prefix: ['short_h'],
  no_expiry: ['expired'],
  any_version: ['bad_version'],
  no_schema: ['missing_field'],
  broadcasts: ['plain', 'escaped_names', 'thirty_items', 'data_output', 'signing_item', 'connect_uri', 'double_fee'],
  drops_data: ['data_output', 'signing_item'],
};

/** The relay's routes, as app/dc, app/relay/pay and app/relay/status wire them, without the HTTP server. */
export function relayRoutesFetch(db: Db, chain: ChainBackend, check: RelayPortContext, ua: string): typeof fetch {
  return (async (input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(String(input));
    const reply = (status: number, body: unknown) => new Response(body === null ? null : JSON.stringify(body), { status });
    if (url.pathname.startsWith('/dc/')) {
      const id = url.pathname.slice(4);
      const env = (await loadEnvelope(db, id)) ?? (await checkEnvelope(check, id, ua));
      return env === null ? reply(404, { error: 'not_found', message: 'unknown payment id' }) : new Response(env, { status: 200 });
    }
    const body = JSON.parse(String(init?.body ?? 'null'));
    const others = walletCheckRelay(check, ua);
    const r =
      url.pathname === '/relay/pay'
        ? await relaySubmit({ db, network: REGTEST, chain, publicUrl: check.publicUrl, others }, body)
        : await queryStatus(db, body, others);
    return reply(r.status, r.body);
  }) as typeof fetch;
}
