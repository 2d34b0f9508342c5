// The nine node text API endpoints (docs/protocol.md#the-node-text-api, docs/node.md#node-text-api) as framework-free handlers:
// app/get*/route.ts only pass the request and the app context.
import type { Db } from '../db';
import type { Network } from '../doge';
import type { Scope } from '../auth';
import { formatAddresses, formatBalance, formatChaintip, formatLastBlockInfo, formatSpent, formatTimestamp, formatUtxos } from './format';
import { encodeWalletFile } from './files';
import { chainTipHeight, lastBlockInfo, walletAddresses, walletBalance, walletFileInput, walletOutputs } from './read';
import { binaryResponse, headersFileStream, nodeHandle, requireNodeScope, textError, textResponse } from './http';

export interface NodeContext {
  db: Db;
  network: Network;
  now?: () => Date;
}

/** A handler: `storeId` is the caller's store for the wallet endpoints, null for the public ones. */
export type NodeEndpoint = (ctx: NodeContext, req: Request, storeId: number | null) => Promise<Response>;

/** The wallet endpoints answer for the caller's store only (docs/architecture.md#data). */
const forStore =
  (fn: (ctx: NodeContext, storeId: number) => Promise<Response>): NodeEndpoint =>
  (ctx, _req, storeId) => {
    if (storeId === null) throw new Error("a wallet endpoint needs the caller's store");
    return fn(ctx, storeId);
  };

/** Which scope each endpoint needs; null = public. */
export const NODE_SCOPES = {
  getBalance: 'node:read',
  getAddresses: 'node:read',
  getTransactions: 'node:read',
  getUTXOs: 'node:read',
  getWallet: 'node:wallet',
  getHeaders: null,
  getChaintip: null,
  getTimestamp: null,
  getLastBlockInfo: null,
} as const satisfies Record<string, Scope | null>;

export type NodeEndpointName = keyof typeof NODE_SCOPES;

const handlers: Record<NodeEndpointName, NodeEndpoint> = {
  getBalance: forStore(async ({ db }, storeId) => textResponse(formatBalance(await walletBalance(db, storeId)))),
  getAddresses: forStore(async ({ db }, storeId) => textResponse(formatAddresses(await walletAddresses(db, storeId)))),
  getTransactions: forStore(async ({ db }, storeId) => {
    const s = await walletOutputs(db, storeId, 'spent');
    return textResponse(formatSpent(s.records, s.tipHeight));
  }),
  getUTXOs: forStore(async ({ db }, storeId) => {
    const s = await walletOutputs(db, storeId, 'unspent');
    return textResponse(formatUtxos(s.records, s.tipHeight));
  }),
  getWallet: forStore(async ({ db, network }, storeId) => {
    const input = await walletFileInput(db, network.genesisHash, storeId);
    if (!input) return textError(404, 'Wallet file not found');
    return binaryResponse(new Uint8Array(encodeWalletFile(input)), 'wallet.db');
  }),
  getHeaders: async ({ db }) => binaryResponse(await headersFileStream(db), 'headers.db'),
  getChaintip: async ({ db }) => textResponse(formatChaintip(await chainTipHeight(db))),
  getTimestamp: async ({ now }) => textResponse(formatTimestamp(now?.() ?? new Date())),
  getLastBlockInfo: async ({ db }) => textResponse(formatLastBlockInfo(await lastBlockInfo(db))),
};

/** Authorises, then answers one node endpoint. */
export function serveNodeEndpoint(name: NodeEndpointName, ctx: () => Promise<NodeContext>, req: Request): Promise<Response> {
  return nodeHandle(async () => {
    const c = await ctx();
    const scope = NODE_SCOPES[name];
    if (!scope) return handlers[name](c, req, null);
    const caller = await requireNodeScope(c.db, req, scope);
    if ('denied' in caller) return caller.denied;
    return handlers[name](c, req, caller.storeId);
  });
}
