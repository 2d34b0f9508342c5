// The chain watch of the wallet check (docs/wallet-check.md#what-the-relay-records): the worker
// hands it every tx it sees in the mempool and in blocks, as it hands them to the payment core. A
// tx paying a pending case's address that did not come through /relay/pay fails the case at
// once: a pay case was "broadcast by the wallet, never submitted to the relay", a refuse case
// was paid although the wallet should have refused it. It writes only the check's own tables.
import type { TxFacts } from '../chain';
import { fromHex, scriptToAddress, type Network } from '../doge';
import type { Db } from '../db';
import type { CaseName } from './cases';
import { CASE_RULES, DETAIL } from './rules';
import { anyPending, decideCase, pendingCasesPaying } from './runs';

export async function observeCheckTxs(db: Db, network: Network, txs: readonly TxFacts[], now: Date = new Date()): Promise<number> {
  if (!txs.length || !(await anyPending(db))) return 0;
  const payers = new Map<string, string[]>();
  for (const tx of txs) {
    for (const o of tx.outputs) {
      const address = scriptToAddress(fromHex(o.script), network);
      if (!address) continue;
      const list = payers.get(address) ?? [];
      list.push(tx.txid);
      payers.set(address, list);
    }
  }
  let decided = 0;
  for (const c of await pendingCasesPaying(db, [...payers.keys()])) {
    const txid = (payers.get(c.address) ?? []).find((t) => t !== c.txid);
    if (!txid) continue;
    const rule = CASE_RULES[c.name as CaseName]?.rule ?? c.name;
    const detail = c.expect === 'pay' ? DETAIL.broadcastOnly : DETAIL.paidOnChain(rule);
    if (await decideCase(db, c.id, 'fail', `${detail} (txid ${txid})`, now, txid)) decided++;
  }
  return decided;
}
