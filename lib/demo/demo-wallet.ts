// The demo wallet as the devnet-only endpoints serve it: the customer's "phone" in
// /demo/wallet needs the key and the UTXOs of the devnet-funded wallet. Null (→ 404) on any
// other backend: this key material must never exist outside the demo chain.
import type { Config } from '../config';
import { type ChainBackend, asDevnet } from '../chain';
import { formatKoinu } from '../money';

export interface DemoWalletJson {
  network: Config['network'];
  address: string;
  /** The `refund` address the demo wallet sends with /relay/pay (DevnetWalletInfo.refundAddress). */
  refund_address: string;
  wif: string;
  balance: string;
  utxos: { txid: string; vout: number; amount: string; script: string; address: string; confirmations: number }[];
}

export function devnetOf(cfg: Config, chain: ChainBackend) {
  return cfg.chainBackend === 'devnet' && cfg.network !== 'mainnet' ? asDevnet(chain) : null;
}

export function demoWalletJson(cfg: Config, chain: ChainBackend): DemoWalletJson | null {
  const d = devnetOf(cfg, chain);
  if (!d) return null;
  const w = d.demoWallet();
  return {
    network: cfg.network,
    address: w.address,
    refund_address: w.refundAddress,
    wif: w.wif,
    balance: formatKoinu(w.balance),
    utxos: w.utxos.map((u) => ({ ...u, amount: formatKoinu(u.amount) })),
  };
}
