// What /relay/pay and /relay/status do with a wallet check case's id (docs/wallet-check.md#what-the-relay-records):
// the relay's own checks (lib/relay: tx shape, exact outputs with the data output, fee rate from
// the backend's input values), then the check's verdict. A pay case passes when its tx passes
// them and the network accepts it; a refusal fails it at once with the relay's reason. A refuse
// case fails on any submission and its tx is never broadcast: a run makes Counter pay, sign or
// store nothing outside itself, and nothing here touches a store's payments.
import { isBackendUnavailable, type ChainBackend } from '../chain';
import { checkFee, checkOutputs, decodeSubmittedTx, type OtherSubmissions, type RelayAnswer } from '../relay';
import type { CaseName } from './cases';
import { CASE_RULES, DETAIL } from './rules';
import { decideCase, fetchEnvelope, loadCase, noteRelayTx, nowOf, recordAgent, type CaseRow, type CheckContext } from './runs';

export interface RelayPortContext extends CheckContext {
  chain: ChainBackend;
}

const refused = (error: string, message: string): RelayAnswer => ({ status: 400, body: { error, message } });
const accepted = (id: string, txid: string): RelayAnswer => ({
  status: 200,
  body: { id, status: 'accepted', txid, required: 1, confirmed: 0, due_sec: 60 },
});

/** Fails the pay case with the relay's reason and answers that refusal. */
async function refuseAndFail(ctx: RelayPortContext, c: CaseRow, error: string, message: string): Promise<RelayAnswer> {
  await decideCase(ctx.db, c.id, 'fail', DETAIL.refusedByRelay(`${error}: ${message}`), nowOf(ctx));
  return refused(error, message);
}

/** The relay's checks of a pay case's tx; the refusal, or null when it may be broadcast. */
async function checkPayTx(ctx: RelayPortContext, c: CaseRow, txHex: string): Promise<RelayAnswer | { txid: string }> {
  const now = nowOf(ctx);
  if (now >= c.expiresAt) return refuseAndFail(ctx, c, 'expired', 'the payment timed out at ' + c.expiresAt.toISOString());
  const decoded = decodeSubmittedTx(txHex, ctx.network, c.maxSize);
  if (!decoded.ok) return refuseAndFail(ctx, c, 'invalid_tx', decoded.message);
  const outs = checkOutputs(decoded.tx, c.outputs, ctx.network);
  if (!outs.ok) return refuseAndFail(ctx, c, outs.error, outs.message);
  if (ctx.chain.canLookupInputs) {
    const inputs = await ctx.chain.lookupInputs(decoded.tx.inputs.map((i) => ({ txid: i.prevTxid, vout: i.vout })));
    const bad = inputs.findIndex((l) => l.state !== 'unspent');
    if (bad >= 0)
      return refuseAndFail(ctx, c, 'invalid_tx', `input ${bad} ${inputs[bad].state === 'spent' ? 'is already spent' : 'does not exist'}`);
    const fee = checkFee(decoded.tx, inputs, c.feePerKb);
    if (!fee.ok) return refuseAndFail(ctx, c, fee.error, fee.message);
  }
  return { txid: decoded.tx.txid };
}

/** A submission for a pay case: checked, broadcast, decided. */
async function submitPay(ctx: RelayPortContext, c: CaseRow, txHex: string): Promise<RelayAnswer> {
  if (c.result === 'pass' && c.txid) return accepted(c.id, c.txid);
  if (c.result === 'fail') return refused('invalid_tx', `this wallet check case already failed: ${c.detail}`);
  const checked = await checkPayTx(ctx, c, txHex);
  if (!('txid' in checked)) return checked;
  // Noted before the broadcast: the chain watch then knows this tx came through the relay.
  await noteRelayTx(ctx.db, c.id, checked.txid);
  const result = await ctx.chain.broadcast(txHex);
  if (!result.ok && result.code !== 'already_known') return refuseAndFail(ctx, c, 'invalid_tx', result.reason);
  await decideCase(ctx.db, c.id, 'pass', DETAIL.paid(checked.txid, 'accepted'), nowOf(ctx), checked.txid);
  return accepted(c.id, checked.txid);
}

/** A submission for a refuse case: the case fails, nothing is broadcast. */
async function submitRefuse(ctx: RelayPortContext, c: CaseRow): Promise<RelayAnswer> {
  const rule = CASE_RULES[c.name as CaseName]?.rule ?? c.name;
  await decideCase(ctx.db, c.id, 'fail', DETAIL.submitted(rule), nowOf(ctx));
  if (c.name === 'expired') return refused('expired', 'the payment timed out at ' + c.expiresAt.toISOString());
  return refused('invalid_tx', `a wallet check request the wallet should have refused: it ${rule}`);
}

/** The port lib/relay asks about ids no payment has, for one request (its User-Agent). */
export function walletCheckRelay(ctx: RelayPortContext, userAgent: string | null): OtherSubmissions {
  return {
    async submit(sub) {
      const c = await loadCase(ctx.db, sub.id);
      if (!c) return null;
      await recordAgent(ctx.db, c.runId, userAgent, nowOf(ctx));
      if (c.finishedAt) return refused('expired', DETAIL.runFinished);
      try {
        return c.expect === 'refuse' ? await submitRefuse(ctx, c) : await submitPay(ctx, c, sub.tx);
      } catch (e) {
        if (!isBackendUnavailable(e)) throw e;
        await noteRelayTx(ctx.db, c.id, null);
        return { status: 503, body: null };
      }
    },
    async status(id) {
      const c = await loadCase(ctx.db, id);
      if (!c) return null;
      if (c.expect === 'pay' && c.result === 'pass' && c.txid) return accepted(c.id, c.txid);
      return { status: 200, body: { id: c.id, status: 'unpaid' } };
    },
  };
}

/** The envelope of a case for GET /dc/<id>, its fetch and User-Agent recorded; null for an id no case has. */
export async function checkEnvelope(ctx: CheckContext, id: string, userAgent: string | null): Promise<string | null> {
  const now = nowOf(ctx);
  const f = await fetchEnvelope(ctx.db, id, now);
  if (!f) return null;
  await recordAgent(ctx.db, f.runId, userAgent, now);
  return f.envelope;
}
