// The live update feed's reads from the database (lib/live/feed-hub.ts): probe rows and
// vendor views of many payments at once, and the one hub per process (per database and
// public URL) that every stream of GET /api/v1/payments/<id>/events subscribes to, fed by the
// database's payment notifications (lib/live/payment-changes.ts).
import { type Db, perDb } from '../db';
import { FeedHub, paymentProbeState, type FeedSource } from './feed-hub';
import type { FeedProbe } from './feed-probe';
import { paymentChanges } from './payment-changes';
import { vendorPaymentView } from '../payments';
import { withRefunds } from '../refunds';

type View = Record<string, unknown>;

const PROBE = { id: true, status: true, confirmations: true, txid: true, broadcastState: true, updatedAt: true, expiresAt: true } as const;
/** Ids per query: well under PostgreSQL's bind parameter limit, and short enough for PGlite. */
const CHUNK = 1000;

function chunks<T>(xs: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < xs.length; i += CHUNK) out.push(xs.slice(i, i + CHUNK));
  return out;
}

export function paymentFeedSource(db: Db, publicUrl: string): FeedSource<View> {
  return {
    async probes(ids) {
      const out = new Map<string, FeedProbe>();
      for (const part of chunks(ids)) {
        for (const r of await db.prisma.payment.findMany({ where: { id: { in: part } }, select: PROBE })) out.set(r.id, r);
      }
      return out;
    },
    async views(ids) {
      const out = new Map<string, View>();
      const now = new Date();
      for (const part of chunks(ids)) {
        // With their refunds (docs/api.md#refunds), as GET /api/v1/payments/<id> shows them.
        const rows = await withRefunds(db.prisma, await db.prisma.payment.findMany({ where: { id: { in: part } } }));
        for (const r of rows) out.set(r.id, vendorPaymentView(r, publicUrl, now));
      }
      return out;
    },
    state: paymentProbeState,
  };
}

const hubs = perDb(() => new Map<string, FeedHub<View>>());

/** The process's shared feed hub for this database (one per public URL, which the views embed). */
export function paymentFeedHub(db: Db, publicUrl: string): FeedHub<View> {
  const m = hubs(db);
  let h = m.get(publicUrl);
  if (!h) m.set(publicUrl, (h = new FeedHub(paymentFeedSource(db, publicUrl), { changes: paymentChanges(db) })));
  return h;
}
