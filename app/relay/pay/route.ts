import { appContext } from '@/lib/app-context';
import { handle, readBodyText, parseJsonOrUndefined, json, transient, walletCheckPort } from '@/lib/api';
import { submitPayment } from '@/lib/relay';

export const dynamic = 'force-dynamic';

export function POST(req: Request) {
  return handle(
    async () => {
      const text = await readBodyText(req);
      const ctx = await appContext();
      const r = await submitPayment(
        {
          db: ctx.db,
          network: ctx.network,
          chain: ctx.chain,
          publicUrl: ctx.cfg.publicUrl,
          afterClaim: ctx.faults.afterClaim,
          others: walletCheckPort(ctx, req),
        },
        parseJsonOrUndefined(text),
      );
      return r.body === null ? transient(r.status as 500 | 503) : json(r.body, r.status);
    },
    { relay: true, req },
  );
}
