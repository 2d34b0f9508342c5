// When the chain worker first saw each tx (docs/security.md "Which transaction pays a refund":
// a tx pays a refund only when it was first seen after the refund was created). The worker sees
// every new mempool tx once (ChainBackend.mempoolNewTxs), nearly all of them paying nothing
// Counter watches, and records none of those; a tx that a customer broadcast before a refund
// existed, and that a block mines after, must still count as seen then. So the first sighting
// of every mempool tx is kept here, in memory, per database: the newest MAX_KEPT of them (a day
// of Dogecoin mainnet's mempool traffic is well below that). After a restart a tx not seen
// since counts as seen when it is next observed. (A block's time is not used as a bound: a
// miner's clock behind ours would leave a refund paid after its creation unpaid, and the
// merchant would pay it twice.)
import { perDb } from '../db';

const MAX_KEPT = 100_000;

export class FirstSeen {
  private readonly at = new Map<string, number>();

  constructor(private readonly max = MAX_KEPT) {}

  /** Notes these txids as seen at `when`, unless seen before. */
  note(txids: readonly string[], when: Date): void {
    for (const t of txids) if (!this.at.has(t)) this.at.set(t, when.getTime());
    // A Map iterates in insertion order: the oldest sightings go first.
    for (const k of this.at.keys()) {
      if (this.at.size <= this.max) break;
      this.at.delete(k);
    }
  }

  /** When the tx was first seen: its noted sighting, else `now`. */
  firstSeen(txid: string, now: Date): Date {
    return new Date(Math.min(this.at.get(txid) ?? now.getTime(), now.getTime()));
  }
}

/** The sightings kept for a database (the chain worker's). */
export const firstSeenOf = perDb(() => new FirstSeen());
