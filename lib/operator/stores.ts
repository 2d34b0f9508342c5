// The operator's stores (docs/architecture.md#data): create a store with an invite for its owner,
// list the stores with their payment counts, suspend and resume them. The operator sees nothing
// else of a store: not its sales, catalog, users or settings.
import { createHash, randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { Db } from '../db';
import { DomainError, parseWith } from '../errors';
import { createStore, listStores, setStoreSuspended, storeIdOf, type StoreSummary } from '../stores';
import { normaliseEmail } from '../auth';
import { printableName } from '../text';
import { mailInvite } from './invite-email';

/** How long an invite may be taken. */
export const INVITE_TTL_MS = 7 * 24 * 60 * 60 * 1000;

const NewStore = z
  .object({
    name: printableName(100),
    owner_email: z
      .string()
      .max(320, 'must be at most 320 characters')
      .transform((s) => normaliseEmail(s))
      .pipe(z.email('must be an email address')),
  })
  .strict();

const Suspension = z.object({ suspended: z.boolean() }).strict();

export interface OperatorStoreView {
  id: number;
  name: string;
  created_at: string;
  suspended: boolean;
  payments: number;
}

const view = (s: StoreSummary, payments: number): OperatorStoreView => ({
  id: s.id,
  name: s.name,
  created_at: s.createdAt.toISOString(),
  suspended: s.suspended,
  payments,
});

/** The SHA-256 an invite's token is stored as. */
export const inviteTokenHash = (token: string): string => createHash('sha256').update(token, 'utf8').digest('hex');

/** POST /api/operator/stores: the store, and the invite link that makes its taker the owner, emailed to it. */
export async function createStoreWithInvite(
  db: Db,
  publicUrl: string,
  operatorId: string,
  body: unknown,
  opts: { now?: Date; mail?: Parameters<typeof mailInvite>[1] } = {},
): Promise<{ id: number; name: string; invite_url: string }> {
  const now = opts.now ?? new Date();
  const p = parseWith(NewStore, body);
  const store = await createStore(db, p.name);
  const token = randomBytes(32).toString('base64url');
  await db.prisma.storeInvite.create({
    data: {
      tokenHash: inviteTokenHash(token),
      storeId: store.id,
      email: p.owner_email,
      createdBy: operatorId,
      expiresAt: new Date(now.getTime() + INVITE_TTL_MS),
    },
  });
  const inviteUrl = `${publicUrl.replace(/\/+$/, '')}/invite/${token}`;
  // The operator sends it to the owner; without a mail server the link answered here is the way.
  await mailInvite({ to: p.owner_email, storeName: store.name, inviteUrl }, opts.mail);
  return { id: store.id, name: store.name, invite_url: inviteUrl };
}

/** GET /api/operator/stores: every store, with the count of its payments and nothing more of them. */
export async function operatorStores(db: Db): Promise<{ stores: OperatorStoreView[] }> {
  const counts = await db.query<{ store_id: number; n: string }>(
    `SELECT store_id, count(*)::text AS n FROM payment WHERE seq > 0 GROUP BY store_id`,
  );
  const byStore = new Map(counts.map((c) => [Number(c.store_id), Number(c.n)]));
  return { stores: (await listStores(db)).map((s) => view(s, byStore.get(s.id) ?? 0)) };
}

/** PATCH /api/operator/stores/<id> { "suspended" }: 404 for no such store. */
export async function suspendStore(db: Db, id: string, body: unknown): Promise<OperatorStoreView> {
  const p = parseWith(Suspension, body);
  const storeId = /^[1-9]\d{0,9}$/.test(id) && Number(id) <= 2_147_483_647 ? storeIdOf(Number(id)) : null;
  const s = storeId === null ? null : await setStoreSuspended(db, storeId, p.suspended);
  if (!s) throw new DomainError('not_found', 'no such store');
  const [c] = await db.query<{ n: string }>(`SELECT count(*)::text AS n FROM payment WHERE store_id = $1 AND seq > 0`, [s.id]);
  return view(s, Number(c?.n ?? 0));
}
