// A ping round trip to one peer of the spv node: a peer answers messages in order, so its pong
// for our nonce proves that every message it sent before (the merkleblocks and txs of a
// filtered-blocks request: filtered-blocks.ts) has been processed.
import { type Peer, decodeU64, encodeU64, randomNonce64 } from '../../p2p';
import { BackendUnavailableError } from '../backend';

interface Pending {
  nonce: bigint;
  peer: Peer;
  resolve: () => void;
}

export class RoundTrips {
  private pongs: Pending[] = [];

  /** Ping and wait for the matching pong: every message the peer sent before is processed. */
  roundTrip(p: Peer, timeoutMs: number): Promise<void> {
    const nonce = randomNonce64();
    return new Promise<void>((resolve, reject) => {
      const t = setTimeout(() => {
        this.pongs = this.pongs.filter((w) => w.nonce !== nonce);
        reject(new BackendUnavailableError(`peer ${p.id} did not answer within ${timeoutMs} ms`));
      }, timeoutMs);
      this.pongs.push({
        nonce,
        peer: p,
        resolve: () => {
          clearTimeout(t);
          resolve();
        },
      });
      p.send('ping', encodeU64(nonce));
    });
  }

  /** A peer's `pong`: ends the round trip waiting for its nonce. */
  onPong(p: Peer, payload: Uint8Array): void {
    const nonce = decodeU64(payload);
    const i = this.pongs.findIndex((w) => w.peer === p && w.nonce === nonce);
    if (i >= 0) this.pongs.splice(i, 1)[0]!.resolve();
  }

  /** A peer closed: its round trips end (the caller then finds what the peer did not send). */
  onClose(p: Peer): void {
    for (const w of this.pongs.filter((x) => x.peer === p)) w.resolve();
    this.pongs = this.pongs.filter((x) => x.peer !== p);
  }

  /** The node stopped: every round trip ends. */
  endAll(): void {
    for (const w of this.pongs) w.resolve();
    this.pongs = [];
  }
}
