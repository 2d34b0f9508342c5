import { appContext } from '@/lib/app-context';
import { handle, NO_STORE, walletCheckContext } from '@/lib/api';
import { notFound } from '@/lib/errors';
import { loadEnvelope } from '@/lib/relay';
import { checkEnvelope } from '@/lib/wallet-check';

export const dynamic = 'force-dynamic';

/** The Connect Envelope, exactly the bytes signed and stored at creation. */
export function GET(req: Request, { params }: { params: Promise<{ id: string }> }) {
  return handle(
    async () => {
      const { id } = await params;
      if (!/^[A-Za-z0-9_-]{1,64}$/.test(id)) throw notFound('unknown payment id');
      const ctx = await appContext();
      const check = walletCheckContext(ctx);
      // A wallet check case's envelope when no payment has this id (docs/wallet-check.md#what-the-relay-records).
      const envelope = (await loadEnvelope(ctx.db, id)) ?? (check ? await checkEnvelope(check, id, req.headers.get('user-agent')) : null);
      if (envelope === null) throw notFound('unknown payment id');
      return new Response(envelope, {
        status: 200,
        headers: { 'Content-Type': 'application/json; charset=utf-8', ...NO_STORE, 'Access-Control-Allow-Origin': '*' },
      });
    },
    { relay: true },
  );
}
