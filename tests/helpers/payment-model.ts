// A plain in-memory model of one payment, written from the contract's rules (the same rules as
// tests/fixtures/payment-state-vectors.json): the txs that pay it, in the order seen, and what
// the status, exception, events, confirmations and broadcasts must be after each worker tick,
// /relay/pay call or merchant action. tests/integration/payment-model.test.ts compares the
// database with it after every step. No database, no chain: arrays and bigints.

export const CONFIRMATIONS_TRACKED = 100;
const STICKY = new Set(['marked_settled', 'marked_invalid', 'cancelled', 'double_spent']);
export const MIN_REFUND = 1_000_000n;

export interface ModelTx {
  txid: string;
  value: bigint;
  seenAt: number;
  height: number | null;
  conflicted: boolean;
  rbf: boolean;
  viaPay: boolean;
}

/**
 * The exception the amounts call for (docs/api.md#payments-from-any-wallet): replaced by the next
 * that applies, cleared at the exact total.
 */
export function amountException(total: bigint, paid: bigint, late: boolean, current: string | null): string | null {
  if (current && STICKY.has(current)) return current;
  if (paid > 0n && paid < total) return 'underpaid';
  if (paid > total) return 'overpaid';
  if (paid === total) return late || current === 'paid_late' ? 'paid_late' : current === 'reorged' ? 'reorged' : null;
  return current === 'underpaid' || current === 'overpaid' ? null : current;
}

export interface ModelOptions {
  total: bigint;
  required: number;
  expiresAt: number;
}

export class PaymentModel {
  status = 'unpaid';
  exception: string | null = null;
  reason: string | null = null;
  events: string[] = [];
  txs: ModelTx[] = [];
  /** The payment's required_confirmations (policy; a /pay RBF tx raises 0 to 1). */
  required: number;
  broadcastState: 'none' | 'sent' = 'none';
  broadcasts = 0;
  /** Times the payment fell back from accepted to unpaid (a needed tx left the mempool). */
  reopened = 0;
  expiredOnce = false;
  refunded = 0n;
  paid = 0n;
  txids: string[] = [];
  confirmations = 0;

  constructor(readonly o: ModelOptions) {
    this.required = o.required;
  }

  /** A deep copy (the race command tries each order of two concurrent events on a copy). */
  clone(): PaymentModel {
    const c = new PaymentModel(this.o);
    Object.assign(c, this, { events: [...this.events], txs: this.txs.map((t) => ({ ...t })), txids: [...this.txids] });
    return c;
  }

  get total() {
    return this.o.total;
  }

  private live() {
    return this.txs.filter((t) => !t.conflicted);
  }

  /** The txs needed to reach the total, in the order seen. */
  private needed(txs: ModelTx[]) {
    const out: ModelTx[] = [];
    let acc = 0n;
    for (const t of txs) {
      if (acc >= this.total) break;
      out.push(t);
      acc += t.value;
    }
    return { needed: out, enough: acc >= this.total };
  }

  /** The confirmations of the least-confirmed needed tx (0 while one is unmined). */
  depth(tip: number): number {
    const { needed, enough } = this.needed(this.live());
    if (!enough || needed.some((t) => t.height === null)) return 0;
    const top = Math.max(...needed.map((t) => t.height!));
    return Math.min(Math.max(tip - top + 1, 0), CONFIRMATIONS_TRACKED);
  }

  private emit(...types: string[]) {
    this.events.push(...types);
  }

  /**
   * What the worker does with the payment after the chain changed: amounts, double spends.
   * `seenRbf`: the txids the worker just saw unmined that signal RBF (a payment relying on one
   * never gets 0-conf, so the move raises its required depth to at least 1:
   * docs/api.md#payments-from-any-wallet); a tx's own `rbf` is what its payment_tx row records,
   * read again by every recompute.
   */
  private recompute(seenRbf: ReadonlySet<string>) {
    const live = this.live();
    const paid = live.reduce((s, t) => s + t.value, 0n);
    const txids = live.map((t) => t.txid);
    const { needed, enough } = this.needed(live);
    const relied = this.needed(this.txs);
    const neededConflicted = relied.enough && relied.needed.some((t) => t.conflicted);
    const before = this.paid;
    const changed = paid !== before || txids.join() !== this.txids.join();
    this.paid = paid;
    this.txids = txids;
    if (neededConflicted && !enough && (this.status === 'accepted' || this.status === 'confirmed') && this.exception !== 'marked_settled') {
      this.status = 'declined';
      this.exception = 'double_spent';
      this.reason = 'double spent';
      this.emit('payment.declined');
      return;
    }
    // Relying on an unmined tx known to signal (just seen, or recorded so: a disconnect or a
    // double spend can make it needed) raises the depth, even when the amounts stay.
    if (needed.some((t) => (seenRbf.has(t.txid) || t.rbf) && t.height === null)) this.required = Math.max(this.required, 1);
    if (!changed && !(this.status === 'unpaid' && enough)) return;
    const late = enough && needed[needed.length - 1].seenAt > this.o.expiresAt;
    const over = paid > this.total && paid > before && this.status !== 'declined';
    switch (this.status) {
      case 'unpaid':
        if (paid === 0n) this.exception = null;
        else if (paid < this.total) {
          this.exception = 'underpaid';
          if (paid > before) this.emit('payment.underpaid');
        } else {
          this.status = 'accepted';
          this.broadcastState = 'sent';
          if (late) {
            this.exception = 'paid_late';
            this.emit('payment.paid_late');
          } else {
            this.exception = amountException(this.total, paid, false, this.exception);
            this.emit('payment.accepted');
          }
          if (over) this.emit('payment.overpaid');
        }
        return;
      case 'accepted':
        this.exception = amountException(this.total, paid, late, this.exception);
        if (paid < this.total) {
          this.status = 'unpaid';
          this.broadcastState = 'none';
          this.confirmations = 0;
          this.reopened++;
          this.emit('payment.unconfirmed');
          if (paid > 0n) this.emit('payment.underpaid');
        } else if (over) this.emit('payment.overpaid');
        return;
      case 'confirmed':
        this.exception = amountException(this.total, paid, late, this.exception);
        if (over) this.emit('payment.overpaid');
        return;
      default: // declined: the amounts are recorded, the state is final
    }
  }

  /**
   * The recount: accepted ⇄ confirmed as the depth crosses the requirement, either way (a reorg
   * takes it back: docs/protocol.md#payment-states).
   */
  private recount(tip: number) {
    if (this.status !== 'accepted' && this.status !== 'confirmed') return;
    if (this.exception === 'marked_settled') return;
    const c = this.depth(tip);
    const reached = c >= this.required;
    this.confirmations = c;
    if (this.status === 'accepted' && reached) {
      this.status = 'confirmed';
      this.emit('payment.confirmed');
    } else if (this.status === 'confirmed' && !reached) {
      this.status = 'accepted';
      this.exception = this.exception ?? 'reorged';
      this.emit('payment.unconfirmed');
    }
  }

  private expire(now: number) {
    if (this.status === 'unpaid' && this.broadcastState === 'none' && !this.expiredOnce && now > this.o.expiresAt) {
      this.expiredOnce = true;
      this.emit('payment.expired');
    }
  }

  /** One worker tick after a change: amounts and double spends, the recount, expiry. */
  tick(tip: number, now: number, seenRbf: ReadonlySet<string> = new Set()) {
    this.recompute(seenRbf);
    this.recount(tip);
    this.expire(now);
  }

  /**
   * The /relay/pay answer for a valid tx paying the total, and its effect
   * (docs/protocol.md#the-relay-pay-and-status).
   */
  pay(tx: ModelTx, now: number): 200 | 403 | 'expired' {
    if (this.status === 'accepted' || this.status === 'confirmed') return 200;
    if (this.status === 'declined') return 403;
    if (now > this.o.expiresAt) return 'expired';
    this.broadcasts++;
    const before = this.paid;
    this.txs.push(tx);
    this.paid = before + tx.value;
    this.txids = [...this.txids, tx.txid];
    this.required = this.required === 0 && tx.rbf ? 1 : this.required;
    this.exception = amountException(this.total, this.paid, false, this.exception);
    this.broadcastState = 'sent';
    if (this.required === 0) {
      this.status = 'confirmed';
      this.emit('payment.accepted', 'payment.confirmed');
    } else {
      this.status = 'accepted';
      this.emit('payment.accepted');
    }
    if (this.paid > this.total) this.emit('payment.overpaid');
    return 200;
  }

  cancel(): 'cancelled' | 'conflict' {
    if (this.status !== 'unpaid' || this.broadcastState !== 'none') return 'conflict';
    this.status = 'declined';
    this.exception = 'cancelled';
    this.reason = 'cancelled by vendor';
    this.emit('payment.declined');
    return 'cancelled';
  }

  mark(as: 'settled' | 'invalid'): boolean {
    if (this.status !== 'unpaid' && this.status !== 'accepted') return false;
    if (as === 'settled') {
      this.status = 'confirmed';
      this.exception = 'marked_settled';
      this.emit('payment.confirmed');
    } else {
      this.status = 'declined';
      this.exception = 'marked_invalid';
      this.reason = 'marked invalid by merchant';
      this.emit('payment.declined');
    }
    return true;
  }

  /** Refunds never add up to more than amount_paid, at the time they are asked (docs/api.md#refunds). */
  refund(asked: bigint | null): bigint | null {
    if (this.paid <= 0n) return null;
    const left = this.paid - this.refunded > 0n ? this.paid - this.refunded : 0n;
    const amount = asked ?? left;
    if (amount === 0n || amount > left || (asked === null && left < MIN_REFUND)) return null;
    this.refunded += amount;
    return amount;
  }
}
