// The node as the rpc backend's parts call it: every call and batch turns unreachability
// (RpcUnavailableError) into BackendUnavailableError, so each ChainBackend method reports it alike.
import { BackendUnavailableError } from '../backend';
import { RpcUnavailableError, type RpcBatchItem, type RpcCall, type RpcClient } from './client';

export interface RpcNode {
  readonly client: RpcClient;
  call<T>(method: string, ...params: unknown[]): Promise<T>;
  batch(calls: RpcCall[]): Promise<RpcBatchItem[]>;
  /** Runs an RPC operation; unreachability becomes BackendUnavailableError. */
  guard<T>(op: () => Promise<T>): Promise<T>;
}

export function rpcNode(client: RpcClient): RpcNode {
  async function guard<T>(op: () => Promise<T>): Promise<T> {
    try {
      return await op();
    } catch (err) {
      if (err instanceof RpcUnavailableError) throw new BackendUnavailableError(err.message, err);
      throw err;
    }
  }
  return {
    client,
    guard,
    call: <T>(method: string, ...params: unknown[]) => guard(() => client.call<T>(method, params)),
    batch: (calls: RpcCall[]) => guard(() => client.batch(calls)),
  };
}

/** The result of one batch item, or its error thrown. */
export function itemResult(item: RpcBatchItem): unknown {
  if (!item.ok) throw item.error;
  return item.result;
}
