// The Idempotency-Key of payment creation (docs/api.md, POST /api/v1/payments): a repeat with
// the same key and body answers the first response; the same key with another body is 409.
// Shared by the Dogecoin sale (create-payment.ts) and the cash sale (lib/cash), so one key
// names one sale whatever its tender.
import { createHash } from 'node:crypto';
import type { Db, Prisma } from '../../db';
import { DomainError } from '../../errors';
import { inStore } from '../../stores';

export class IdempotencyConflictError extends DomainError {
  constructor() {
    super('conflict', 'this Idempotency-Key was already used with a different request body');
    this.name = 'IdempotencyConflictError';
  }
}

export interface Replayed {
  status: number;
  body: Record<string, unknown>;
  replayed: true;
}

export interface Idempotency {
  /** The first answer to this key and body, or null when the key is new (throws on another body). */
  replay(): Promise<Replayed | null>;
  /** Keeps the answer, inside the transaction that creates the sale. */
  save(tx: Pick<Prisma, 'idempotencyKey'>, status: number, body: Record<string, unknown>): Promise<void>;
}

/** Keys are scoped per API key, else per user. A null `key` makes both steps no-ops. */
export function idempotency(
  db: Db,
  scope: { storeId: number; apiKeyId?: string | null; userId?: string | null },
  key: string | null | undefined,
  rawBody: string,
): Idempotency {
  const apiKeyId = scope.apiKeyId ?? (scope.userId ? `user:${scope.userId}` : 'anonymous');
  const requestHash = createHash('sha256').update(rawBody).digest('hex');
  return {
    async replay() {
      if (!key) return null;
      const prior = await db.prisma.idempotencyKey.findUnique({ where: { apiKeyId_key: { apiKeyId, key } } });
      // A key of another store (a user's key names the user, who may sell in several) is not this one's.
      if (!prior || prior.storeId !== scope.storeId) return null;
      if (prior.requestHash !== requestHash) throw new IdempotencyConflictError();
      return { status: prior.statusCode, body: JSON.parse(prior.responseBody) as Record<string, unknown>, replayed: true };
    },
    async save(tx, status, body) {
      if (!key) return;
      await tx.idempotencyKey.create({
        data: { ...inStore(scope.storeId), apiKeyId, key, requestHash, statusCode: status, responseBody: JSON.stringify(body) },
      });
    },
  };
}
