// A throwaway `litecoind -regtest` node on loopback for backend tests. Litecoin Core stands in
// for Dogecoin Core (docs/architecture.md#chain-backends): same RPCs, regtest magic, address prefixes and tpub keys.
//
//   const node = await startLitecoind();          // wallet "w" with mature coins
//   const hex = await node.payTo([{ address, amountKoinu: 150_000_000n }]); // signed, NOT sent
//   await node.mine(1);
//   await node.dispose();                         // stop and delete the datadir
//
// RPC answers go through lib/chain/rpc/client: number literals with a fraction (amounts,
// difficulty…) arrive as exact strings; use koinuFromRpc for amounts.
import { koinuToRpc } from '../../lib/chain/rpc/client';
import { encodeAddress } from '../../lib/doge/address';
import { REGTEST } from '../../lib/doge/network';
import { startNode, terminate, NodeProcess, type NodeKind, type PayOutput, type RegtestNode } from './regtest-node';
import { sleep } from './wait';

export type { PayOutput };

export const LITECOIND = process.env.LITECOIND_BIN ?? '/usr/bin/litecoind';
export const LITECOIN_REGTEST_GENESIS = '530827f38f93b43ed12af0b3ad25a288dc02ed74d6d7857862df51fc56c416f9';
/**
 * A valid regtest P2PKH address whose key nobody has (hash160 = 20 × 0x01). Mining to it skips
 * the wallet's bookkeeping, which makes generatetoaddress about 10× faster.
 */
export const EXTERNAL_ADDRESS = encodeAddress('p2pkh', new Uint8Array(20).fill(1), REGTEST);

const WALLET = 'w';

export interface LitecoindOptions {
  /** Create wallet "w" (default true). Without it, mine() needs an address and payTo fails. */
  wallet?: boolean;
  /**
   * Blocks mined to the wallet at start so it has spendable coins (default 120: 20 mature
   * coinbases of 50 LTC). 0 leaves the chain at genesis. Ignored without a wallet.
   */
  matureBlocks?: number;
  /** Extra litecoind arguments. */
  args?: string[];
  /** RPC timeout for rpc() calls (default 30 s). */
  rpcTimeoutMs?: number;
}

export interface PayOptions {
  /** Fee rate in koinu (litoshi) per 1000 bytes. Default 1_000_000 (0.01/kB, the relay's default fee_per_kb). */
  feeRateKoinuPerKb?: bigint;
  /** OP_RETURN payloads (hex), appended after the outputs. Core's policy relays only one per tx. */
  dataHex?: string[];
  /** Spend these outpoints (the wallet adds more inputs if they are not enough). */
  inputs?: { txid: string; vout: number }[];
  /** Opt into BIP125 replaceability (sequence < 0xfffffffe). Default false. */
  replaceable?: boolean;
}

/** stop() sends SIGTERM, SIGKILL after 15 s. */
export interface Litecoind extends RegtestNode {
  /** Mine n blocks to `address` (default: a fresh wallet address). Returns the block hashes. */
  mine(n: number, address?: string): Promise<string[]>;
  /**
   * Mine n blocks that hold only their coinbase, whatever the mempool holds (generateblock with
   * no txs): a reorg's replacement chain that certainly leaves a tx out.
   */
  mineEmpty(n: number, address?: string): Promise<string[]>;
  /**
   * Build, fund (fundrawtransaction, legacy) and sign (signrawtransactionwithwallet) a tx paying
   * `outputs`, and return its hex WITHOUT broadcasting it. `outputs` is either a list of
   * address/koinu pairs or a raw createrawtransaction outputs argument. The change output goes last.
   */
  payTo(outputs: PayOutput[] | Record<string, string> | Record<string, string>[], opts?: PayOptions): Promise<string>;
  /** Connect to another node (addnode onetry) and wait until the peer shows up. */
  connect(other: Pick<Litecoind, 'p2pPort'>): Promise<void>;
}

/** Litecoin Core's own flags, and its readiness probe. */
const LITECOIN: NodeKind = {
  name: 'litecoind',
  bin: LITECOIND,
  installHint: 'apt-get install litecoind',
  args: [
    '-fallbackfee=0.0002',
    '-maxtxfee=100', // tests may pay Dogecoin-sized fees (0.01+/kB)
    '-addresstype=legacy',
    '-changetype=legacy',
    '-vbparams=mweb:4102444800:4102444801', // keep MWEB off: mining fails from height 432 otherwise
    '-txindex=0',
  ],
  async ready(client, datadir, rpcPort) {
    // getrpcinfo names this node's log file: proves we reached our node, not another one
    // that grabbed the port.
    const info = await client.call<{ logpath?: string }>('getrpcinfo', [], { timeoutMs: 2_000 });
    if (!info.logpath?.startsWith(datadir)) throw new Error(`port ${rpcPort} answered for another node`);
    await client.call('getblockchaininfo', [], { timeoutMs: 2_000 });
  },
};

export async function startLitecoind(opts: LitecoindOptions = {}): Promise<Litecoind> {
  const withWallet = opts.wallet ?? true;
  const matureBlocks = withWallet ? (opts.matureBlocks ?? 120) : 0;
  const extra = opts.args ?? [];
  const started = await startNode(LITECOIN, { datadirPrefix: 'counter-ltc-', extra, rpcTimeoutMs: opts.rpcTimeoutMs });
  const { datadir, p2pPort, rpcPort, rpcUrl, rpc } = started;
  const proc = new NodeProcess(LITECOIN, started, extra, (c) => terminate(c, 15_000));

  if (withWallet) {
    // load_on_startup=true so restart() brings the wallet back.
    await rpc('createwallet', WALLET, false, false, '', false, false, true);
  }

  const newAddress = () => rpc<string>('getnewaddress');
  // Large counts go in chunks, so one RPC call stays well inside its timeout on a busy machine.
  const mine = async (n: number, address?: string) => {
    const to = address ?? (await newAddress());
    const hashes: string[] = [];
    for (let left = n; left > 0; left -= 500) hashes.push(...(await rpc<string[]>('generatetoaddress', Math.min(500, left), to)));
    return hashes;
  };
  const mineEmpty = async (n: number, address?: string) => {
    const to = address ?? (await newAddress());
    const hashes: string[] = [];
    for (let i = 0; i < n; i++) hashes.push((await rpc<{ hash: string }>('generateblock', to, [])).hash);
    return hashes;
  };

  const node: Litecoind = {
    rpcUrl,
    p2pPort,
    rpcPort,
    datadir,
    get pid() {
      return proc.pid;
    },
    rpc,
    mine,
    mineEmpty,
    newAddress,

    async payTo(outputs, payOpts = {}) {
      let outs: unknown;
      if (Array.isArray(outputs) && outputs.every((o) => typeof o === 'object' && o !== null && 'amountKoinu' in o)) {
        outs = (outputs as PayOutput[]).map((o) => ({ [o.address]: koinuToRpc(o.amountKoinu) }));
      } else {
        outs = Array.isArray(outputs) ? [...outputs] : Object.entries(outputs).map(([k, v]) => ({ [k]: v }));
      }
      const list = outs as Record<string, string>[];
      for (const data of payOpts.dataHex ?? []) list.push({ data });
      const inputs = (payOpts.inputs ?? []).map((i) => ({ txid: i.txid, vout: i.vout }));
      const unsigned = await rpc<string>('createrawtransaction', inputs, list, 0, payOpts.replaceable ?? false);
      const funded = await rpc<{ hex: string }>('fundrawtransaction', unsigned, {
        feeRate: koinuToRpc(payOpts.feeRateKoinuPerKb ?? 1_000_000n),
        changePosition: list.length,
        replaceable: payOpts.replaceable ?? false,
      });
      const signed = await rpc<{ hex: string; complete: boolean; errors?: unknown }>('signrawtransactionwithwallet', funded.hex);
      if (!signed.complete) throw new Error(`signrawtransactionwithwallet incomplete: ${JSON.stringify(signed.errors)}`);
      return signed.hex;
    },

    send: (hex) => rpc<string>('sendrawtransaction', hex, 0),

    async connect(other) {
      const addr = `127.0.0.1:${other.p2pPort}`;
      await rpc('addnode', addr, 'onetry');
      const deadline = Date.now() + 10_000;
      for (;;) {
        const peers = await rpc<{ addr: string }[]>('getpeerinfo');
        if (peers.some((p) => p.addr === addr)) return;
        if (Date.now() > deadline) throw new Error(`node did not connect to ${addr}`);
        await sleep(100);
      }
    },

    stop: () => proc.stop(),
    restart: () => proc.restart(),
    dispose: () => proc.dispose(),
  };

  try {
    if (matureBlocks > 0) await mine(matureBlocks);
  } catch (err) {
    await node.dispose();
    throw err;
  }
  return node;
}
