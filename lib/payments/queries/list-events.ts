// The vendor event log (GET /api/v1/events?after=<cursor>): the same events as the webhooks.
import { type Db, parseInt64 } from '../../db';
import { InvalidRequestError } from '../../errors';
import { salesScope, type SalesViewer } from '../sales-scope';
import { inStore } from '../../stores';

/** `v`: the caller's store and, for a cashier, only its own sales' events. */
export async function listEvents(db: Db, v: SalesViewer, params: URLSearchParams) {
  const after = params.get('after') ?? '';
  const limitRaw = params.get('limit') ?? '';
  if (after !== '' && parseInt64(after) === null) throw new InvalidRequestError('after', 'must be a cursor from a previous answer');
  if (limitRaw !== '' && (!/^\d{1,3}$/.test(limitRaw) || Number(limitRaw) < 1 || Number(limitRaw) > 500)) {
    throw new InvalidRequestError('limit', 'must be an integer 1–500');
  }
  const limit = limitRaw ? Number(limitRaw) : 100;
  const rows = await db.prisma.vendorEvent.findMany({
    where: {
      ...inStore(v.storeId),
      ...(after ? { seq: { gt: BigInt(after) } } : {}),
      ...(v.ownSalesOf ? { payment: salesScope({ storeId: v.storeId, ownSalesOf: v.ownSalesOf }) } : {}),
    },
    orderBy: { seq: 'asc' },
    take: limit,
  });
  return {
    events: rows.map((r) => ({ cursor: r.seq.toString(), ...JSON.parse(r.body), delivery: r.deliveryState })),
    next_cursor: rows.length ? rows[rows.length - 1].seq.toString() : after || null,
  };
}
