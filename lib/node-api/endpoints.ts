// The nine node text API endpoints (docs/protocol.md#the-node-text-api, docs/node.md#node-text-api) as framework-free handlers:
// app/get*/route.ts only pass the request and the app context.
import type { Db } from '../db/client';
import { FIRST_STORE_ID } from '../stores';
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

export type NodeEndpoint = (ctx: NodeContext, req: Request) => Promise<Response>;

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
  getBalance: async ({ db }) => textResponse(formatBalance(await walletBalance(db))),
  getAddresses: async ({ db }) => textResponse(formatAddresses(await walletAddresses(db))),
  getTransactions: async ({ db }) => {
    const s = await walletOutputs(db, 'spent');
    return textResponse(formatSpent(s.records, s.tipHeight));
  },
  getUTXOs: async ({ db }) => {
    const s = await walletOutputs(db, 'unspent');
    return textResponse(formatUtxos(s.records, s.tipHeight));
  },
  getWallet: async ({ db, network }) => {
    const input = await walletFileInput(db, network.genesisHash, FIRST_STORE_ID);
    if (!input) return textError(404, 'Wallet file not found');
    return binaryResponse(new Uint8Array(encodeWalletFile(input)), 'wallet.db');
  },
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
    if (scope) {
      const denied = await requireNodeScope(c.db, req, scope);
      if (denied) return denied;
    }
    return handlers[name](c, req);
  });
}
