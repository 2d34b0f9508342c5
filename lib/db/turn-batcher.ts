// Coalesces the writes of one event-loop turn into one statement, as BatchLoader does for
// reads. Unlike a lookup, a write is never shared between callers: each submitted item gets
// its own result. Two items that touch the same thing (the same `keys`) never travel in one
// batch: the later one waits for the next batch, which is sent after the earlier one's
// statement has answered, so it sees that statement's effect exactly as it would have if each
// item were its own statement.

/** A result standing for one item's own error: that item's caller gets `error`, the others their results. */
export class ItemFailure {
  constructor(readonly error: unknown) {}
}

export interface TurnBatcherOptions<I> {
  /** What an item touches; items sharing a key go in separate batches, in submission order. */
  keys?: (item: I) => readonly string[];
  /** Most items per batch; more pending items wait for the next batch. */
  maxBatch?: number;
  /** Runs the flush later, after the submissions of this turn are in (default setImmediate). */
  schedule?: (fn: () => void) => void;
}

interface Pending<I, O> {
  item: I;
  resolve: (v: O) => void;
  reject: (e: unknown) => void;
}

export class TurnBatcher<I, O> {
  private queue: Pending<I, O>[] = [];
  private scheduled = false;
  /** The keys of the batches sent and not yet answered. */
  private readonly inFlight = new Set<string>();
  private readonly maxBatch: number;
  private readonly keys: (item: I) => readonly string[];
  private readonly schedule: (fn: () => void) => void;

  /**
   * `run` answers a batch with one result per item, in order; an ItemFailure among them fails
   * that item alone (e.g. items retried one by one after the batch's statement failed). When
   * `run` itself fails, every item of that batch gets the error (a batch is one statement:
   * nothing of it was applied).
   */
  constructor(
    private readonly run: (items: I[]) => Promise<(O | ItemFailure)[]>,
    opts: TurnBatcherOptions<I> = {},
  ) {
    this.maxBatch = Math.max(1, opts.maxBatch ?? 256);
    this.keys = opts.keys ?? (() => []);
    this.schedule = opts.schedule ?? ((fn) => void setImmediate(fn));
  }

  submit(item: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      this.kick();
    });
  }

  private kick(): void {
    if (this.scheduled || this.queue.length === 0) return;
    this.scheduled = true;
    this.schedule(() => this.flush());
  }

  private flush(): void {
    this.scheduled = false;
    // A batch holding a key is in flight: the items after it that share none still go now, but
    // an item that shares a key with an unanswered batch waits for that answer.
    const batch: Pending<I, O>[] = [];
    const batchKeys: string[] = [];
    const rest: Pending<I, O>[] = [];
    const taken = new Set<string>(this.inFlight);
    for (const p of this.queue) {
      let keys: readonly string[];
      try {
        keys = this.keys(p.item);
      } catch (e) {
        p.reject(e);
        continue;
      }
      if (batch.length >= this.maxBatch || keys.some((k) => taken.has(k))) {
        rest.push(p);
        for (const k of keys) taken.add(k); // later items sharing a key keep their order
        continue;
      }
      for (const k of keys) taken.add(k);
      batchKeys.push(...keys);
      batch.push(p);
    }
    this.queue = rest;
    if (batch.length === 0) return; // everything waits on a batch in flight, which re-kicks
    for (const k of batchKeys) this.inFlight.add(k);
    let answer: Promise<(O | ItemFailure)[]>;
    try {
      answer = this.run(batch.map((p) => p.item));
    } catch (e) {
      answer = Promise.reject(e);
    }
    answer
      .then((results) => {
        if (!Array.isArray(results) || results.length !== batch.length)
          throw new Error(`batch answered ${Array.isArray(results) ? results.length : 'no'} results for ${batch.length} items`);
        batch.forEach((p, j) => {
          const r = results[j];
          if (r instanceof ItemFailure) p.reject(r.error);
          else p.resolve(r);
        });
      })
      .catch((e: unknown) => {
        for (const p of batch) p.reject(e);
      })
      .finally(() => {
        for (const k of batchKeys) this.inFlight.delete(k);
        this.kick();
      });
    if (this.queue.length > 0 && batch.length >= this.maxBatch) this.kick();
  }
}
