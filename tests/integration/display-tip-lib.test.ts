// The display's tip answer against a real PGlite store (docs/counter.md#tips-on-the-customers-display):
// two answers to one wait at once (a double tap, two displays of one till) are decided once.
// Both read the wait before either writes, so only the write's own guard can refuse the second.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerTip, startTipWait, tipWaitOf, TipError } from '@/lib/display/tip';
import { openTestStore, type TestStore } from '../helpers/stores';

let store: TestStore;
const till = { id: 'till-tip-lib', storeId: 1 };

beforeAll(async () => {
  store = await openTestStore();
  await store.db.prisma.terminal.create({ data: { id: till.id, storeId: 1, name: 'Counter', tokenHash: 'tip-lib-terminal' } });
  await store.db.prisma.customerDisplay.create({
    data: { id: 'display-tip-lib', storeId: 1, terminalId: till.id, tokenHash: 'tip-lib-display' },
  });
});
afterAll(() => store?.close());

describe('the display tip answer', () => {
  it('takes one of two answers given at once, and refuses the other as outside the wait', async () => {
    expect(await startTipWait(store.db, till, 1_000_000_000n, 'DOGE')).not.toBeNull();
    const display = { terminalId: till.id, storeId: 1 };
    const got = await Promise.allSettled([answerTip(store.db, display, { percent: 10 }), answerTip(store.db, display, { percent: 20 })]);
    const taken = got.flatMap((r, i) => (r.status === 'fulfilled' ? [i] : []));
    expect(taken.length, got.map((r) => r.status).join(',')).toBe(1);
    const refused = got.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    expect(refused.reason).toBeInstanceOf(TipError);
    expect((refused.reason as TipError).code).toBe('conflict');
    expect((await tipWaitOf(store.db, till))?.answer).toBe(taken[0] === 0 ? '100000000' : '200000000');
  });
});
