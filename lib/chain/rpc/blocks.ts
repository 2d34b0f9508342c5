// Following the chain over RPC: the tip, the hash at a height and a block with its transactions
// (`getblock <hash> 2` plus `getblockheader <hash> false` for the 80 header bytes; Dogecoin
// appends AuxPoW there). Works without -txindex.
import { fromHex, hashToHex, isHex, sha256d } from '../../doge';
import type { BlockSummary, TipInfo } from '../backend';
import { RPC_CODES, RpcError } from './client';
import { arr, hash, int, obj, str, txShape } from './answers';
import { txFacts } from '../tx-facts';
import { itemResult, type RpcNode } from './node';

const ZERO_HASH = '0'.repeat(64);

export async function tip(node: RpcNode): Promise<TipInfo> {
  const best = hash(await node.call<string>('getbestblockhash'), 'getbestblockhash');
  const header = obj(await node.call('getblockheader', best, true), 'getblockheader');
  return { hash: best, height: int(header, 'height', 'getblockheader') };
}

export async function blockHashAt(node: RpcNode, height: number): Promise<string | null> {
  if (!Number.isSafeInteger(height) || height < 0) throw new RangeError(`invalid block height ${height}`);
  try {
    return hash(await node.call<string>('getblockhash', height), 'getblockhash');
  } catch (err) {
    // -8 "Block height out of range"
    if (err instanceof RpcError && err.code === RPC_CODES.INVALID_PARAMETER) return null;
    throw err;
  }
}

export async function block(node: RpcNode, blockHash: string): Promise<BlockSummary> {
  if (!isHex(blockHash, 32)) throw new TypeError('block hash must be 32-byte hex');
  const [blockItem, headerItem] = await node.batch([
    { method: 'getblock', params: [blockHash, 2] },
    { method: 'getblockheader', params: [blockHash, false] },
  ]);
  const b = obj(itemResult(blockItem), 'getblock');
  const headerHex = itemResult(headerItem);
  // Dogecoin serializes AuxPoW after the 80-byte header; Litecoin has none.
  if (typeof headerHex !== 'string' || headerHex.length < 160 || !isHex(headerHex.slice(0, 160))) {
    throw new TypeError('unexpected RPC answer: getblockheader is not a serialized header');
  }
  const header = fromHex(headerHex.slice(0, 160));
  const h = hash(str(b, 'hash', 'getblock'), 'getblock.hash');
  if (hashToHex(sha256d(header)) !== h) throw new Error(`header from getblockheader does not hash to ${h}`);
  const txs = arr(b.tx, 'getblock.tx').map(txShape);
  return {
    hash: h,
    prevHash: typeof b.previousblockhash === 'string' ? hash(b.previousblockhash, 'getblock.previousblockhash') : ZERO_HASH,
    height: int(b, 'height', 'getblock'),
    time: int(b, 'time', 'getblock'),
    header,
    size: int(b, 'size', 'getblock'),
    txCount: txs.length,
    totalTxSize: txs.reduce((sum, t) => sum + t.size, 0),
    txs: txs.map((t) => txFacts(t.tx, 'mined')),
  };
}
