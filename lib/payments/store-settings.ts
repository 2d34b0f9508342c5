// Store settings as the relay uses them (docs/configuration.md, docs/relay.md). Stored in the `store` row.
import type { Db } from '../db';
import { readStore } from '../stores';

export interface StoreSettings {
  name: string;
  icon: string;
  address: string;
  url: string;
  feePerKb: bigint;
  maxSize: number;
  timeoutSec: number;
  zeroConfLimit: bigint;
  oneConfLimit: bigint;
  oneConfRequired: number;
  highConfRequired: number;
  webhookUrl: string;
  storeXpub: string;
  storeAddress: string;
  /** DOGE or an ISO 4217 code (docs/api.md#pricing-in-a-fiat-currency). */
  pricingCurrency: string;
  /** Cash as a tender (docs/counter.md#cash), offered only when pricingCurrency is fiat. */
  cashEnabled: boolean;
  /** A suspended store takes no new payments (docs/architecture.md#data). */
  suspended: boolean;
}

export async function readStoreSettings(db: Db, storeId: number): Promise<StoreSettings> {
  const s = await readStore(db, storeId);
  return {
    name: s.name,
    icon: s.icon,
    address: s.address,
    url: s.url,
    feePerKb: s.feePerKb,
    maxSize: s.maxSize,
    timeoutSec: s.timeoutSec,
    zeroConfLimit: s.zeroConfLimit,
    oneConfLimit: s.oneConfLimit,
    oneConfRequired: s.oneConfRequired,
    highConfRequired: s.highConfRequired,
    webhookUrl: s.webhookUrl,
    storeXpub: s.storeXpub,
    storeAddress: s.storeAddress,
    pricingCurrency: s.pricingCurrency,
    cashEnabled: s.cashEnabled,
    suspended: s.suspended,
  };
}
