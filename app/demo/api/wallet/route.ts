// GET /demo/api/wallet: the devnet demo wallet (key and UTXOs) for /demo/wallet.
// 404 (any method) unless CHAIN_BACKEND=devnet (never on mainnet): lib/demo/gate and lib/api/demo-route.
import { staticContext } from '@/lib/app-context';
import { handle, json, demoRoute, demoNoMethod } from '@/lib/api';
import { notFound } from '@/lib/errors';
import { demoWalletJson } from '@/lib/demo';

export const dynamic = 'force-dynamic';

export const GET = demoRoute(() =>
  handle(async () => {
    const { cfg, chain } = staticContext();
    const w = demoWalletJson(cfg, chain);
    if (!w) throw notFound('the demo wallet exists only with CHAIN_BACKEND=devnet');
    return json(w);
  }),
);
export const HEAD = demoNoMethod;
export const POST = demoNoMethod;
export const PUT = demoNoMethod;
export const PATCH = demoNoMethod;
export const DELETE = demoNoMethod;
export const OPTIONS = demoNoMethod;
