// POST /relay/pay (docs/relay.md), in the order the design fixes. One transaction is broadcast at
// a time per payment, and at most one is ever accepted: the winner claims the payment row
// atomically before broadcasting; concurrent losers wait for the winner's outcome. Nothing a
// third party who saw the QR code can submit ends a payment: a tx the network refuses (missing
// or spent inputs, a double spend, any rejection) gets 400 invalid_tx and the payment stays
// unpaid and payable. `declined` comes only from the vendor's cancel, the merchant's "mark
// invalid", or a conflicting tx confirming after acceptance (section 12), never from here.
import type { Db } from '../db';
import { decodeAddress, fromHex, pubkeyToAddress, scriptToAddress, decodeScript, type DecodedTx, type Network } from '../doge';
import { isBackendUnavailable, type InputLookup } from '../chain';
import {
  paymentStatus,
  loadPayRow,
  claimPayment,
  recordRejected,
  releaseClaim,
  acceptClaimed,
  isPastExpiry,
  canClaimBroadcast,
  canReleaseBroadcast,
  type Claim,
  type PayRow,
  type PaymentRow,
  type ChainContext,
  whyNot,
  type NotPaid,
} from '../payments';
import { decodeSubmittedTx, checkOutputs, checkFee, paidToAddress } from './tx-checks';
import { loadStatusRow } from './hot-reads';
import { log } from '../log';

export interface PayContext extends ChainContext {
  /**
   * Called once a submission holds the claim, before it broadcasts. The composition root
   * injects the crash test's fault here (lib/app-context.ts); production passes nothing.
   */
  afterClaim?: () => void;
  /** Ids that are not payments but that the relay still answers for (OtherSubmissions). */
  others?: OtherSubmissions;
}

/**
 * Ids that are not payments, which /relay/pay and /relay/status still answer for: the wallet
 * check's cases (docs/wallet-check.md#what-the-relay-records). The composition root fills this narrow port,
 * so the relay imports nothing above it; it is asked only about an id no payment has, so the
 * payment path is unchanged. `null` means "not mine either": the relay answers 404 as before.
 */
export interface OtherSubmissions {
  submit(sub: { id: string; tx: string; refund?: unknown }): Promise<RelayAnswer | null>;
  status(id: string): Promise<RelayAnswer | null>;
}

/** How finishing a claimed broadcast ended (broadcastClaimed), for the relay and the worker alike. */
export type BroadcastOutcome =
  { kind: 'decided'; row: PaymentRow } | { kind: 'refused'; reason: string } | { kind: 'unavailable' } | { kind: 'not_found' };

export type RelayAnswer =
  | { status: 200 | 403; body: Record<string, unknown> }
  | { status: 400 | 404; body: { error: string; message: string } }
  | { status: 500 | 503; body: null };

const err = (status: 400 | 404, error: string, message: string): RelayAnswer => ({ status, body: { error, message } });

function answerFor(row: PaymentRow): RelayAnswer | null {
  if (row.status === 'accepted' || row.status === 'confirmed') return { status: 200, body: paymentStatus(row) };
  if (row.status === 'declined') return { status: 403, body: paymentStatus(row) };
  return null;
}

/** The address that paid: the first input's prevout script if known, else its scriptSig pubkey. */
function firstInputAddress(scriptSigHex: string, prevScript: string | null, network: Network): string {
  if (prevScript) return scriptToAddress(fromHex(prevScript), network) ?? '';
  try {
    const ops = decodeScript(fromHex(scriptSigHex));
    const last = ops[ops.length - 1];
    const data = last && 'data' in last ? (last.data as Uint8Array) : null;
    if (data && (data.length === 33 || data.length === 65)) return pubkeyToAddress(data, network);
  } catch {
    /* not a standard scriptSig */
  }
  return '';
}

/** Why a tx submitted for a refund does not pay it, or null (the rule of lib/payments/refund-match.ts). */
function refundTxProblem(tx: DecodedTx, row: PayRow, now: Date, network: Network): NotPaid | null {
  return whyNot(
    {
      txid: tx.txid,
      firstSeen: now,
      submittedFor: row.id,
      outputs: tx.outputs.map((o) => ({ value: o.value, script: o.script })),
      inputs: tx.inputs.map((i) => ({ prevout: `${i.prevTxid}:${i.vout}`, scriptSig: i.scriptSig })),
    },
    { id: row.id, address: row.address, amount: row.total, status: row.status, createdAt: row.createdAt, seq: 0n, spent: [] },
    network,
  );
}

const unavailable = (): RelayAnswer => ({ status: 503, body: null });

/**
 * Waits for the submission holding the claim to finish: its answer once the payment is decided,
 * the row as it stands when the holder gave the claim back (the network refused its tx, or the
 * backend was unreachable), or 503 at the deadline (a holder that died: the reconciler finishes it).
 */
async function awaitWinner(db: Db, id: string, deadline: number): Promise<{ answer: RelayAnswer } | { released: PayRow }> {
  while (Date.now() < deadline) {
    const row = await loadPayRow(db, id);
    if (!row) return { answer: err(404, 'not_found', 'unknown payment id') };
    const a = answerFor(row);
    if (a) return { answer: a };
    if (canClaimBroadcast(row)) return { released: row };
    await new Promise((r) => setTimeout(r, 50));
  }
  return { answer: unavailable() };
}

/**
 * Claims the payment for this submission and broadcasts it. A loser waits for the holder; when
 * the holder's tx is refused (or its backend was down) the claim is free again and the loser's
 * own tx, which passed every check, gets its turn: the answer a loser receives is about its own
 * tx or the payment's decided status, never another submission's rejection. Gives up with 503
 * after 30 s without a decision.
 */
async function claimAndBroadcast(ctx: PayContext, row: PayRow, c: Claim): Promise<RelayAnswer> {
  const { db } = ctx;
  const deadline = Date.now() + 30_000;
  let current = row;
  for (;;) {
    const claim = await claimPayment(db, row.id, c);
    if (claim === 'duplicate_tx') return err(400, 'invalid_tx', 'this transaction was already submitted for another payment');
    if (claim === 'claimed') {
      ctx.afterClaim?.();
      // 10. Network acceptance (with the row as claimed: no reload).
      const claimedRow: PayRow = {
        ...current,
        broadcastState: 'pending',
        txid: c.txid,
        txHex: c.txHex,
        refundAddress: c.refund,
        buyerAddress: c.buyer,
        updatedAt: c.now,
      };
      return relayAnswer(await broadcastClaimed(ctx, row.id, claimedRow));
    }
    const w = await awaitWinner(db, row.id, deadline);
    if ('answer' in w) return w.answer;
    // Claim again, against the row as it now stands (the accept statement is guarded by it).
    const now = ctx.now?.() ?? new Date();
    if (isPastExpiry(w.released, now)) return err(400, 'expired', 'the payment timed out at ' + w.released.expiresAt.toISOString());
    current = w.released;
    c = { ...c, now };
  }
}

/** A submission whose body has the shape step 1 asks for; the other fields are checked later. */
interface Submission {
  id: string;
  tx: string;
  refund?: unknown;
}

/**
 * Step 1, the body's shape: the answer refusing it, or null when the body is a Submission (the
 * caller then uses the body itself, not a copy: this is the hot path). A missing id is a 404, as
 * for an unknown one (docs/relay.md).
 */
function shapeProblem(body: unknown): RelayAnswer | null {
  if (body === null || typeof body !== 'object' || Array.isArray(body) || typeof (body as { tx?: unknown }).tx !== 'string') {
    return err(400, 'invalid_tx', 'the body must be a JSON object with a string tx');
  }
  const id = (body as { id?: unknown }).id;
  if (typeof id !== 'string' || id === '') return err(404, 'not_found', 'id is required');
  return null;
}

/** The refund address the customer gave ('' for none), or the answer refusing it. */
function refundAddress(refund: unknown, network: Network): string | RelayAnswer {
  if (refund === undefined || refund === '') return '';
  if (typeof refund !== 'string') return err(400, 'invalid_tx', 'refund must be a string address');
  try {
    decodeAddress(refund, network);
  } catch {
    return err(400, 'invalid_tx', `refund is not a valid ${network.name} address`);
  }
  return refund;
}

/** Step 8: the answer refusing a tx whose outputs do not pay this payment, or null. */
function outputsProblem(tx: DecodedTx, row: PayRow, now: Date, network: Network): RelayAnswer | null {
  const outs = checkOutputs(tx, row.outputs, network);
  if (!outs.ok) return err(400, outs.error, outs.message);
  // A refund is paid only by a tx that pays its exact amount and spends none of its address's
  // coins (lib/payments/refund-match.ts): the customer's own change sent here pays nothing.
  if (row.refundOf) {
    const why = refundTxProblem(tx, row, now, network);
    if (why)
      return err(
        400,
        why.reason === 'amount' ? 'invalid_outputs' : 'invalid_tx',
        `this transaction does not pay the refund: ${why.message}`,
      );
  }
  return null;
}

/**
 * A tx whose input `bad` the backend reports spent or unknown. A concurrent submission may hold
 * or have won the payment with a tx spending these very coins: its outcome is this submission's
 * answer (step 3: a decided payment ignores the tx). Otherwise the tx is refused before any
 * broadcast (step 10): 400, the submission is recorded, the payment stays unpaid and payable.
 */
async function refuseUnspendable(
  db: Db,
  row: PayRow,
  tx: DecodedTx,
  submitted: Pick<Claim, 'txid' | 'txHex' | 'refund'>,
  bad: number,
  state: InputLookup['state'],
): Promise<RelayAnswer> {
  const fresh = await loadPayRow(db, row.id);
  if (fresh && canReleaseBroadcast(fresh)) {
    const w = await awaitWinner(db, row.id, Date.now() + 30_000);
    if ('answer' in w) return w.answer;
  } else {
    const decided = fresh && answerFor(fresh);
    if (decided) return decided;
  }
  const o = tx.inputs[bad];
  const reason = `input ${bad} (${o.prevTxid}:${o.vout}) ${state === 'spent' ? 'is already spent' : 'does not exist'}`;
  await recordRejected(db, row.id, { ...submitted, reason });
  return err(400, 'invalid_tx', reason);
}

/** The outpoints a tx spends, as the backend's input lookup takes them. */
const spentOutpoints = (tx: DecodedTx) => tx.inputs.map((i) => ({ txid: i.prevTxid, vout: i.vout }));

/**
 * POST /relay/pay in the design's numbered steps (docs/relay.md). This is a hot path (the bench's
 * `pay`): the checks are plain functions, and the only awaits are the row load, the input lookup
 * and the claim, as before the split.
 */
export async function submitPayment(ctx: PayContext, body: unknown): Promise<RelayAnswer> {
  const { db, network, chain } = ctx;
  const now = ctx.now?.() ?? new Date();
  // 1. Body shape.
  const shape = shapeProblem(body);
  if (shape) return shape;
  const sub = body as Submission;
  // 2. Unknown id.
  const row = await loadPayRow(db, sub.id);
  if (!row) return (await ctx.others?.submit(sub)) ?? err(404, 'not_found', 'unknown payment id');
  // 3–4. Already decided: idempotent answer, the new tx is ignored.
  const decided = answerFor(row);
  if (decided) return decided;
  // 5. Token: none. Counter issues no relay_token and checks every submission against its own
  // records, so a relay_token sent anyway, of any value, is ignored (docs/relay.md).
  // 6. Expiry.
  if (isPastExpiry(row, now)) return err(400, 'expired', 'the payment timed out at ' + row.expiresAt.toISOString());
  // 7. Shape.
  const decoded = decodeSubmittedTx(sub.tx, network, row.maxSize);
  if (!decoded.ok) return err(400, 'invalid_tx', decoded.message);
  const tx = decoded.tx;
  const refund = refundAddress(sub.refund, network);
  if (typeof refund !== 'string') return refund;
  // 8. Outputs.
  const outputs = outputsProblem(tx, row, now, network);
  if (outputs) return outputs;
  // 9. Fee, from input values the backend looks up.
  let prevScript: string | null = null;
  if (chain.canLookupInputs) {
    let inputs: InputLookup[];
    try {
      inputs = await chain.lookupInputs(spentOutpoints(tx));
    } catch (e) {
      if (isBackendUnavailable(e)) return unavailable();
      throw e;
    }
    const bad = inputs.findIndex((l) => l.state !== 'unspent');
    if (bad >= 0) return refuseUnspendable(db, row, tx, { txid: tx.txid, txHex: sub.tx.toLowerCase(), refund }, bad, inputs[bad].state);
    const fee = checkFee(tx, inputs, row.feePerKb);
    if (!fee.ok) return err(400, fee.error, fee.message);
    const first = inputs[0];
    prevScript = first.state === 'unspent' ? first.script : null;
  }
  const buyer = refund || firstInputAddress(tx.inputs[0]?.scriptSig ?? '', prevScript, network);

  // Claim: one submission at a time proceeds to broadcast (the claim and its submission row
  // are one statement).
  const claim: Claim = { txid: tx.txid, txHex: sub.tx.toLowerCase(), refund, buyer, now };
  return claimAndBroadcast(ctx, row, claim);
}

/** The relay's answer for a broadcast's outcome. */
function relayAnswer(o: BroadcastOutcome): RelayAnswer {
  switch (o.kind) {
    case 'decided':
      return answerFor(o.row) ?? unavailable();
    case 'refused':
      return err(400, 'invalid_tx', o.reason);
    case 'unavailable':
      return unavailable();
    case 'not_found':
      return err(404, 'not_found', 'unknown payment id');
  }
}

/**
 * Broadcasts the claimed tx of a payment and records the outcome through lib/payments (accepted,
 * or the claim released). Also used by the worker on recovery.
 */
export async function broadcastClaimed(ctx: PayContext, id: string, claimed?: PayRow): Promise<BroadcastOutcome> {
  const { db, chain } = ctx;
  const row = claimed ?? (await loadPayRow(db, id));
  if (!row || !row.txHex) return { kind: 'not_found' };
  if (answerFor(row)) return { kind: 'decided', row };
  const txid = row.txid ?? '';
  let result;
  try {
    result = await chain.broadcast(row.txHex);
  } catch (e) {
    if (isBackendUnavailable(e)) {
      // Nothing reached the network as far as we know: release the claim, change nothing.
      await releaseClaim(db, id, txid, 'ignored', 'backend unavailable', ctx.now?.() ?? new Date());
      return { kind: 'unavailable' };
    }
    throw e;
  }
  const now = ctx.now?.() ?? new Date();
  if (!result.ok && result.code !== 'already_known') {
    // Our own tx may already be mined or in the mempool (a rebroadcast after a crash): Core then
    // reports its spent inputs as a double spend. Trust the chain records before refusing.
    let known = row.blockHash !== null;
    if (!known && row.txid) {
      try {
        known = await chain.inMempool(row.txid);
      } catch (e) {
        // Cannot tell: keep the claim (the reconciler retries it) and change nothing.
        if (isBackendUnavailable(e)) return { kind: 'unavailable' };
        throw e;
      }
    }
    if (!known) {
      // 10. The network refused it: release the claim; the payment stays unpaid and payable by
      // another tx, the submission keeps the node's reason, and no event is emitted.
      if (!(await releaseClaim(db, id, txid, 'rejected', result.reason, now))) {
        const fresh = await loadPayRow(db, id);
        if (fresh && answerFor(fresh)) return { kind: 'decided', row: fresh };
      }
      return { kind: 'refused', reason: result.reason };
    }
  }
  // 11. Accepted, or confirmed at once when the risk policy allows 0-conf (never for RBF: the
  // table decides, lib/payments/transition.ts `requiredDepth`).
  const paid = paidToAddress(row.txHex, row.address, ctx.network);
  const accepted = await acceptClaimed(db, row, now, ctx.publicUrl, paid, await replaceable(chain, row));
  const final = accepted ?? (await loadPayRow(db, id));
  return final && answerFor(final) ? { kind: 'decided', row: final } : { kind: 'unavailable' };
}

/**
 * Whether the accepted tx is replaceable: it or an unconfirmed ancestor signals BIP125, as the
 * backend's mempool shows it (lib/chain/tx-facts.ts; docs/security.md). Asked only
 * when it matters, a payment that would otherwise take 0-conf; when the backend cannot answer,
 * taken as replaceable: the payment then waits for a block.
 */
async function replaceable(chain: PayContext['chain'], row: PayRow): Promise<boolean> {
  if (row.requiredConfirmations > 0 || !row.txHex) return false;
  try {
    return (await chain.mempoolTxFacts(fromHex(row.txHex))).signalsRbf;
  } catch (e) {
    log.warn('the RBF signal of an accepted tx could not be read: it waits for a block', {
      payment: row.id,
      txid: row.txid,
      error: e as Error,
    });
    return true;
  }
}

export async function queryStatus(db: Db, body: unknown, others?: OtherSubmissions): Promise<RelayAnswer> {
  const id = body && typeof body === 'object' && !Array.isArray(body) ? (body as { id?: unknown }).id : undefined;
  if (typeof id !== 'string' || id === '') return err(404, 'not_found', 'id is required');
  if (id.length > 200) return err(404, 'not_found', 'unknown payment id');
  const row = await loadStatusRow(db, id);
  if (!row) return (await others?.status(id)) ?? err(404, 'not_found', 'unknown payment id');
  return { status: 200, body: paymentStatus(row) };
}
