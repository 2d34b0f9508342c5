// Cursor-paged payment listing, newest first (GET /api/v1/payments).
import { z } from 'zod';
import { type Db, parseInt64, storableDate } from '../../db';
import { InvalidRequestError, fromZod } from '../../errors';
import { vendorPaymentView } from '../view';
import { isRfc3339 } from '../../connect';
import { salesScope, type SalesViewer } from '../sales-scope';
import { withRefunds } from '../refunds-of';

/** An RFC 3339 time the database can store (years 1–9999; a leap second is not one). */
const storableTime = (s: string) => isRfc3339(s) && storableDate(new Date(s)) !== null;

const Query = z.object({
  status: z.enum(['unpaid', 'accepted', 'confirmed', 'declined']).optional(),
  from: z.string().max(40).refine(storableTime, 'must be an RFC 3339 timestamp between years 1 and 9999').optional(),
  to: z.string().max(40).refine(storableTime, 'must be an RFC 3339 timestamp between years 1 and 9999').optional(),
  limit: z
    .string()
    .regex(/^\d{1,3}$/, 'must be an integer 1–100')
    .transform(Number)
    .pipe(z.number().min(1, 'must be an integer 1–100').max(100, 'must be an integer 1–100'))
    .optional(),
  cursor: z.string().max(200).optional(),
});

export function encodeCursor(seq: bigint): string {
  return Buffer.from(`p:${seq}`).toString('base64url');
}
export function decodeCursor(c: string): bigint {
  const m = /^p:(\d{1,19})$/.exec(Buffer.from(c, 'base64url').toString('utf8'));
  const seq = m ? parseInt64(m[1]) : null;
  if (seq === null) throw new InvalidRequestError('cursor', 'is not a cursor this API issued');
  return seq;
}

/** `v`: the caller's store and, for a cashier, the payments it created. */
export async function listPayments(db: Db, v: SalesViewer, params: URLSearchParams, publicUrl: string, now = new Date()) {
  const raw: Record<string, string> = {};
  for (const k of ['status', 'from', 'to', 'limit', 'cursor']) {
    const v = params.get(k);
    if (v !== null && v !== '') raw[k] = v;
  }
  const q = Query.safeParse(raw);
  if (!q.success) throw fromZod(q.error);
  const limit = q.data.limit ?? 50;
  const rows = await db.prisma.payment.findMany({
    where: {
      ...salesScope(v),
      ...(q.data.status ? { status: q.data.status } : {}),
      createdAt: { ...(q.data.from ? { gte: new Date(q.data.from) } : {}), ...(q.data.to ? { lt: new Date(q.data.to) } : {}) },
      ...(q.data.cursor ? { seq: { lt: decodeCursor(q.data.cursor) } } : {}),
    },
    orderBy: { seq: 'desc' },
    take: limit + 1,
  });
  const page = rows.slice(0, limit);
  return {
    payments: (await withRefunds(db.prisma, page)).map((r) => vendorPaymentView(r, publicUrl, now)),
    next_cursor: rows.length > limit ? encodeCursor(page[page.length - 1].seq) : null,
  };
}
