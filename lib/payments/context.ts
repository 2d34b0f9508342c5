// What the payment core's commands run against: the database, the network, the public URL that
// events and views link to, and the clock (docs/architecture.md#time). The relay and the worker
// add the chain backend; each adds its own injected hooks on top.
import type { Db } from '../db';
import type { Network } from '../doge';
import type { ChainBackend } from '../chain';

export interface SyncContext {
  db: Db;
  network: Network;
  publicUrl: string;
  now?: () => Date;
}

/** A SyncContext with the chain backend: /relay/pay's broadcast, the worker's tick. */
export interface ChainContext extends SyncContext {
  chain: ChainBackend;
}
