import { appContext } from '@/lib/app-context';
import { handle } from '@/lib/api/handle';
import { NO_STORE } from '@/lib/api/respond';
import { notFound } from '@/lib/errors';
import { loadEnvelope } from '@/lib/relay';

export const dynamic = 'force-dynamic';

/** The Connect Envelope, exactly the bytes signed and stored at creation. */
export function GET(_req: Request, { params }: { params: Promise<{ id: string }> }) {
  return handle(async () => {
    const { id } = await params;
    if (!/^[A-Za-z0-9_-]{1,64}$/.test(id)) throw notFound('unknown payment id');
    const ctx = await appContext();
    const envelope = await loadEnvelope(ctx.db, id);
    if (envelope === null) throw notFound('unknown payment id');
    return new Response(envelope, { status: 200, headers: { 'Content-Type': 'application/json; charset=utf-8', ...NO_STORE, 'Access-Control-Allow-Origin': '*' } });
  }, { relay: true });
}
