// The back office's wallet history (docs/node.md#the-wallets-history-birthday-and-rescan): the owner sets the wallet's
// birthday and starts rescans; both are audited. lib/chain/rescan does the work; this maps its
// refusals to back-office errors (400 bad input, 409 not now) and validates the bodies.
import { z } from 'zod';
import type { Db } from '../db';
import {
  type ChainBackend,
  RescanRefused,
  requestRescan,
  setBirthday,
  getState,
  K,
  readWalletHistory,
  type WalletHistoryStatus,
} from '../chain';
import { recordAudit } from './audit';
import { BackofficeError, parseWith } from './errors';

const From = z.union([z.number().int(), z.string().trim().min(1).max(40)]);
const RescanBody = z.object({ from: From }).strict();
const BirthdayBody = z.object({ wallet_birthday: z.union([From, z.null()]) }).strict();

async function refusals<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    if (e instanceof RescanRefused) throw new BackofficeError(e.code, e.message, e.code === 'invalid_request' ? 'from' : '');
    throw e;
  }
}

export async function startOperatorRescan(
  db: Db,
  chain: ChainBackend,
  storeId: number,
  actorId: string,
  body: unknown,
): Promise<WalletHistoryStatus> {
  const { from } = parseWith(RescanBody, body);
  const r = await refusals(() => requestRescan(db, chain, from));
  await recordAudit(db.prisma, storeId, actorId, 'wallet.rescan', {
    from: typeof from === 'number' ? from : from.trim(),
    from_height: r.from,
    to_height: r.target,
  });
  return readWalletHistory(db);
}

export async function changeBirthday(
  db: Db,
  chain: ChainBackend,
  storeId: number,
  actorId: string,
  body: unknown,
): Promise<WalletHistoryStatus> {
  const { wallet_birthday } = parseWith(BirthdayBody, body);
  const before = await getState(db, K.birthday);
  const r = await refusals(() => setBirthday(db, chain, wallet_birthday));
  if (before !== r.birthday)
    await recordAudit(db.prisma, storeId, actorId, 'settings.update', { wallet_birthday: { from: before, to: r.birthday } });
  return readWalletHistory(db);
}
