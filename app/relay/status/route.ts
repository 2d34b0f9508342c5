import { appContext } from '@/lib/app-context';
import { handle, readBodyText, parseJsonOrUndefined, json, transient, walletCheckPort } from '@/lib/api';
import { queryStatus } from '@/lib/relay';

export const dynamic = 'force-dynamic';

export function POST(req: Request) {
  return handle(
    async () => {
      const text = await readBodyText(req);
      const ctx = await appContext();
      const r = await queryStatus(ctx.db, parseJsonOrUndefined(text), walletCheckPort(ctx, req));
      return r.body === null ? transient(r.status as 500 | 503) : json(r.body, r.status);
    },
    { relay: true, req },
  );
}
