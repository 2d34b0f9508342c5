// GET /demo/api/wallet: the devnet demo wallet (key and UTXOs) for /demo/wallet.
// Refused with 404 unless CHAIN_BACKEND=devnet (never on mainnet).
import { staticContext } from '@/lib/app-context';
import { handle } from '@/lib/api/handle';
import { json, jsonError } from '@/lib/api/respond';
import { demoWalletJson } from '@/lib/demo/demo-wallet';

export const dynamic = 'force-dynamic';

export function GET() {
  return handle(async () => {
    const { cfg, chain } = staticContext();
    const w = demoWalletJson(cfg, chain);
    return w ? json(w) : jsonError(404, 'not_found', 'the demo wallet exists only with CHAIN_BACKEND=devnet');
  });
}
