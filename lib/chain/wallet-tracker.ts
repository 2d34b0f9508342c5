// The watch-only wallet, backend-agnostic (docs/node.md#node-text-api, docs/architecture.md#chain-backends): records the transactions of
// connected blocks that pay a watched address (wallet_address) or spend a wallet output, and
// rewinds them when the block is disconnected. The rpc backend hands over every transaction of
// a block, the spv backend the ones its bloom filter matched; both call the same two hooks.
//
// Each block is applied in one database transaction, so readers (the node text API) see a block
// entirely or not at all. Both hooks are idempotent: a crash may replay a block.
//
// Reorg semantics: outputs and transactions of a disconnected block are removed, and spends made
// in it are unmarked. A transaction that the new chain confirms again is recorded again when
// its new block connects. The wallet tracks confirmed transactions only (no mempool).
import type { Db } from '../db';
import { fromHex, scriptToAddress, type Network } from '../doge';
import type { BlockSummary, BlockTxSummary } from './backend';
import { forgetUsedIndexes, syncWatchAddresses } from './watch-addresses';

interface Hit {
  tx: BlockTxSummary;
  outputs: { n: number; value: bigint; script: string; address: string }[];
  spends: { txid: string; vout: number }[];
}

/** The block's transactions that touch the wallet, with their wallet outputs and spends. */
async function walletHits(db: Db, network: Network, b: BlockSummary): Promise<Hit[]> {
  const candidates = new Set<string>();
  const outAddr = new Map<string, string | null>(); // script -> address
  for (const t of b.txs) {
    for (const o of t.outputs) {
      if (!outAddr.has(o.script)) {
        let a: string | null = null;
        try {
          a = scriptToAddress(fromHex(o.script), network);
        } catch {
          a = null;
        }
        outAddr.set(o.script, a);
        if (a) candidates.add(a);
      }
    }
  }
  const watched = new Set(
    candidates.size
      ? (await db.prisma.walletAddress.findMany({ where: { address: { in: [...candidates] } }, select: { address: true } })).map(
          (r) => r.address,
        )
      : [],
  );
  const prevTxids = [...new Set(b.txs.flatMap((t) => t.inputs.map((i) => i.txid)))];
  // Wallet outputs this block may spend: known ones, plus those created earlier in this block.
  const known = new Set(
    prevTxids.length
      ? (await db.prisma.walletOutput.findMany({ where: { txid: { in: prevTxids } }, select: { txid: true, vout: true } })).map(
          (o) => `${o.txid}:${o.vout}`,
        )
      : [],
  );
  const hits: Hit[] = [];
  for (const tx of b.txs) {
    const spends = tx.inputs.filter((i) => known.has(`${i.txid}:${i.vout}`));
    const outputs = tx.outputs.flatMap((o) => {
      const address = outAddr.get(o.script);
      return address && watched.has(address) ? [{ ...o, address }] : [];
    });
    for (const o of outputs) known.add(`${tx.txid}:${o.n}`);
    if (outputs.length || spends.length) hits.push({ tx, outputs, spends });
  }
  return hits;
}

/**
 * Records the wallet's part of a connected block. Returns how many wallet txs it held. After a
 * block with wallet outputs the watched addresses are synced again (the gap limit moves on).
 */
export async function trackBlockConnected(
  db: Db,
  network: Network,
  b: BlockSummary,
  opts: { addressesSynced?: boolean } = {},
): Promise<number> {
  if (b.txs.length === 0) return 0; // most filtered blocks (spv, a rescan's) hold nothing of ours
  // A caller that just synced the watched addresses (a rescan, once per batch) saves the queries.
  if (!opts.addressesSynced) await syncWatchAddresses(db, network);
  const hits = await walletHits(db, network, b);
  if (hits.length === 0) return 0;
  await db.prisma.$transaction(async (t) => {
    for (const h of hits) {
      const raw = new Uint8Array(h.tx.raw ?? new Uint8Array(0));
      // Position in the block: the node API lists a block's records in block order (docs/node.md#node-text-api).
      const blockPos = h.tx.index ?? b.txs.indexOf(h.tx);
      await t.walletTx.upsert({
        where: { txid: h.tx.txid },
        update: { height: b.height, blockHash: b.hash, blockPos, ...(raw.length ? { raw } : {}) },
        create: { txid: h.tx.txid, raw, height: b.height, blockHash: b.hash, blockPos },
      });
      for (const o of h.outputs) {
        await t.walletOutput.upsert({
          where: { txid_vout: { txid: h.tx.txid, vout: o.n } },
          update: { height: b.height, blockHash: b.hash, blockPos },
          create: {
            txid: h.tx.txid,
            vout: o.n,
            address: o.address,
            script: o.script,
            amount: o.value,
            height: b.height,
            blockHash: b.hash,
            blockPos,
          },
        });
      }
      for (const s of h.spends) {
        await t.walletOutput.updateMany({
          where: { txid: s.txid, vout: s.vout },
          data: { spentTxid: h.tx.txid, spentHeight: b.height },
        });
      }
    }
  });
  // A payment to an address near the end of the watched range moves the gap limit on.
  if (hits.some((h) => h.outputs.length)) await syncWatchAddresses(db, network, { usedChanged: true });
  return hits.length;
}

/** Rewinds a disconnected block: unmarks the spends made in it, removes its txs and outputs. */
export async function trackBlockDisconnected(db: Db, hash: string): Promise<void> {
  await db.prisma.$transaction(async (t) => {
    const txs = (await t.walletTx.findMany({ where: { blockHash: hash }, select: { txid: true } })).map((r) => r.txid);
    if (txs.length === 0) return;
    await t.walletOutput.updateMany({ where: { spentTxid: { in: txs } }, data: { spentTxid: null, spentHeight: null } });
    await t.walletOutput.deleteMany({ where: { blockHash: hash } });
    await t.walletTx.deleteMany({ where: { blockHash: hash } });
  });
  forgetUsedIndexes(db); // its outputs are gone: the used indexes are read again at the next sync
}

/**
 * What a backend must watch for the wallet (docs/architecture.md#chain-backends: addresses, outputs, txids): the
 * scripts and hash160s of the watched addresses, and the unspent wallet outpoints (so that the
 * spv backend's bloom filter also matches the transactions spending them).
 */
export async function walletWatchSet(
  db: Db,
): Promise<{ scripts: string[]; hash160s: string[]; outpoints: { txid: string; vout: number }[] }> {
  const [addrs, outs] = await Promise.all([
    db.prisma.walletAddress.findMany({ select: { script: true, hash160: true }, orderBy: [{ branch: 'asc' }, { idx: 'asc' }] }),
    db.prisma.walletOutput.findMany({
      where: { spentTxid: null },
      select: { txid: true, vout: true },
      orderBy: [{ txid: 'asc' }, { vout: 'asc' }],
    }),
  ]);
  return { scripts: addrs.map((a) => a.script), hash160s: addrs.map((a) => a.hash160), outpoints: outs };
}
