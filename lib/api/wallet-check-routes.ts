// HTTP plumbing of the wallet check (docs/wallet-check.md#routes): its context from the app's, the
// gate (404 where it does not run), and the relay port for /relay/pay, /relay/status and /dc.
import type { AppContext } from '../app-context';
import { walletCheckEnabled, walletCheckRelay, type RelayPortContext } from '../wallet-check';
import type { OtherSubmissions } from '../relay';

export function walletCheckContext(ctx: AppContext): RelayPortContext | null {
  if (!walletCheckEnabled(ctx.cfg.network, ctx.cfg.walletCheck)) return null;
  return { db: ctx.db, network: ctx.network, chain: ctx.chain, dataDir: ctx.cfg.dataDir, publicUrl: ctx.cfg.publicUrl };
}

/** The relay's port for the check's case ids, for this request; undefined where the check does not run. */
export function walletCheckPort(ctx: AppContext, req: Request): OtherSubmissions | undefined {
  const c = walletCheckContext(ctx);
  return c ? walletCheckRelay(c, req.headers.get('user-agent')) : undefined;
}
