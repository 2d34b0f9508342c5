// Broadcast into the devnet mempool. The signatures are checked first, off the event loop and
// concurrently with other broadcasts (sig-verifier.ts); the txs are then accepted in the order
// they were broadcast (a child right after its parent finds the parent in the mempool, and of two
// conflicting txs the first wins), each against the chain as it then stands (inputs, outputs, fee).
import { fromHex, isHex } from '../../doge';
import type { BroadcastResult } from '../backend';
import type { DevnetChain } from './chain';
import { sigVerdict } from './script';
import { SigVerifier } from './sig-verifier';
import type { DevnetStore } from './store';

export class DevnetBroadcaster {
  private readonly sigs = new SigVerifier();
  /** The last broadcast's acceptance: each waits for the one before (call order). */
  private accepted: Promise<unknown> = Promise.resolve();

  constructor(private readonly store: DevnetStore) {}

  async broadcast(txHex: string): Promise<BroadcastResult> {
    if (typeof txHex !== 'string' || txHex.length === 0 || !isHex(txHex))
      return { ok: false, code: 'rejected', reason: 'transaction is not hex' };
    const c = this.store.load().chain;
    const raw = fromHex(txHex);
    const verdicts = this.scriptVerdicts(c, raw);
    const turn = this.accepted.then(async () => {
      const v = await verdicts;
      const before = c.mempool.size;
      const r = c.accept(raw, v);
      // Append only the new tx (rewriting the whole mempool per broadcast was O(mempool) each).
      if (r.ok && c.mempool.size > before) this.store.appendMempoolTx(raw);
      return r;
    });
    this.accepted = turn.catch(() => undefined);
    return turn;
  }

  close(): Promise<void> {
    return this.sigs.close();
  }

  /** The tx's script verdicts, with its signatures checked off the event loop. */
  private async scriptVerdicts(c: DevnetChain, raw: Uint8Array): Promise<Map<string, string | null> | undefined> {
    const pre = c.scriptChecks(raw);
    if (!pre) return undefined;
    const ok = await this.sigs.verify(pre.checks.map((x) => x.check));
    pre.checks.forEach((x, i) => pre.verdicts.set(x.key, sigVerdict(x.index, ok[i])));
    return pre.verdicts;
  }
}
