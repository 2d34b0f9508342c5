// The chain worker publishes its view through chain_state rows; web processes read them.
import type { Db } from '../db/client';

export async function publishChainState(db: Db, values: Record<string, string | number | boolean>): Promise<void> {
  const now = new Date();
  for (const [key, v] of Object.entries(values)) {
    const value = String(v);
    await db.prisma.chainState.upsert({ where: { key }, update: { value, updatedAt: now }, create: { key, value, updatedAt: now } });
  }
}
