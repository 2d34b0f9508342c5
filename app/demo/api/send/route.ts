// POST /demo/api/send {"address": "…", "amount": "0.5"}: the devnet demo wallet pays a plain
// transaction to an address, as any ordinary wallet paying a `dogecoin:` URI would (
// docs/api.md#payments-from-any-wallet), any amount: part of a payment, the rest, or too much. Answers the txid.
// 404 (any method) unless CHAIN_BACKEND=devnet (never on mainnet): lib/demo/gate and lib/api/demo-route.
import * as z from 'zod';
import { staticContext } from '@/lib/app-context';
import { handle, json, jsonBody, demoRoute, demoNoMethod } from '@/lib/api';
import { InvalidRequestError, conflict, notFound } from '@/lib/errors';
import { devnetOf } from '@/lib/demo';
import { parseKoinu, formatKoinu, ONE_DOGE } from '@/lib/money';
import { buildPaymentTx } from '@/lib/wallet';

export const dynamic = 'force-dynamic';

const SendRequest = z.object({ address: z.string().min(25).max(64), amount: z.string().min(1).max(32) }).strict();

export const POST = demoRoute((req) =>
  handle(async () => {
    const { cfg, chain } = staticContext();
    const d = devnetOf(cfg, chain);
    if (!d) throw notFound('the demo wallet exists only with CHAIN_BACKEND=devnet');
    const body = await jsonBody(req, SendRequest, { limit: 4096 });
    let amount: bigint;
    try {
      amount = parseKoinu(body.amount);
    } catch (e) {
      throw new InvalidRequestError('amount', (e as Error).message);
    }
    if (amount <= 0n) throw new InvalidRequestError('amount', 'must be greater than 0');
    const w = d.demoWallet();
    // One coin that covers the amount and a fee, the largest confirmed one first.
    const coin = w.utxos
      .filter((u) => u.confirmations > 0 && u.amount >= amount + ONE_DOGE)
      .sort((a, b) => (a.amount > b.amount ? -1 : 1))[0];
    if (!coin) throw conflict('the demo wallet has no confirmed coin large enough: mine a block');
    let hex: string;
    try {
      const request = {
        fee_per_kb: '0.01',
        outputs: [{ type: 'p2pkh', address: body.address, amount: formatKoinu(amount) }],
      } as unknown as Parameters<typeof buildPaymentTx>[0];
      hex = buildPaymentTx(request, {
        network: cfg.network,
        utxos: [{ txid: coin.txid, vout: coin.vout, amount: coin.amount, script: coin.script }],
        keys: [w.wif],
      }).hex;
    } catch (e) {
      throw new InvalidRequestError('', (e as Error).message);
    }
    const r = await d.broadcast(hex);
    if (!r.ok) throw conflict(`the devnet refused the transaction: ${r.reason}`);
    return json({ txid: r.txid });
  }),
);
export const GET = demoNoMethod;
export const HEAD = demoNoMethod;
export const PUT = demoNoMethod;
export const PATCH = demoNoMethod;
export const DELETE = demoNoMethod;
export const OPTIONS = demoNoMethod;
