// One P2P connection: TCP, framing, version/verack handshake, ping/pong keepalive, timeouts.
// Any protocol violation (bad magic, checksum, oversize, undecodable payload) closes the socket
// with `misbehaving` set so the pool can ban the address; nothing a peer sends can throw out of
// here.
import { Socket } from 'node:net';
import { EventEmitter } from 'node:events';
import {
  FrameDecoder,
  NODE_BLOOM,
  PROTOCOL_VERSION,
  WireError,
  decodeU64,
  decodeVersion,
  encodeMessage,
  encodeU64,
  encodeVersion,
  randomNonce64,
  type VersionMsg,
} from './wire';

export interface PeerOptions {
  host: string;
  port: number;
  magic: string;
  userAgent?: string;
  startHeight: () => number;
  handshakeTimeoutMs?: number;
  pingIntervalMs?: number;
  /** No message at all for this long closes the connection. */
  idleTimeoutMs?: number;
  /**
   * The version message's relay flag: whether the peer announces every mempool tx to us from the
   * start (rpc's announcement connection) or none until a bloom filter is loaded (spv). Default false.
   */
  relay?: boolean;
}

export interface PeerEvents {
  message: [command: string, payload: Uint8Array];
  ready: [];
  close: [reason: string, misbehaving: boolean];
}

export class Peer extends EventEmitter<PeerEvents> {
  readonly id: string;
  remote: VersionMsg | null = null;
  ready = false;
  closed = false;
  bytesIn = 0;
  /** The peer's feefilter (koinu per kB): it will not relay txs paying less. */
  feeFilter = 0n;
  /** When we asked this peer for headers and are still waiting (0 = not waiting). */
  headersAskedAt = 0;
  private socket: Socket | null = null;
  private decoder: FrameDecoder;
  private timers: ReturnType<typeof setTimeout>[] = [];
  private lastRx = Date.now();
  private pingNonce: bigint | null = null;
  private gotVerack = false;

  constructor(readonly opts: PeerOptions) {
    super();
    this.id = `${opts.host}:${opts.port}`;
    this.decoder = new FrameDecoder(opts.magic);
  }

  connect(): void {
    const s = new Socket();
    this.socket = s;
    s.setNoDelay(true);
    s.on('data', (d) => this.onData(d));
    s.on('error', (e) => this.close(`socket error: ${e.message}`));
    s.on('close', () => this.close('socket closed'));
    s.connect(this.opts.port, this.opts.host, () => {
      this.send(
        'version',
        encodeVersion({
          version: PROTOCOL_VERSION,
          services: 0n,
          timestamp: BigInt(Math.floor(Date.now() / 1000)),
          nonce: randomNonce64(),
          userAgent: this.opts.userAgent ?? '/counter-spv:0.1/',
          startHeight: this.opts.startHeight(),
          relay: this.opts.relay ?? false,
        }),
      );
    });
    const hs = setTimeout(() => {
      if (!this.ready) this.close('handshake timeout');
    }, this.opts.handshakeTimeoutMs ?? 10_000);
    const ping = setInterval(() => this.keepalive(), this.opts.pingIntervalMs ?? 30_000);
    this.timers.push(hs, ping);
  }

  private keepalive(): void {
    if (!this.ready) return;
    const idle = this.opts.idleTimeoutMs ?? 90_000;
    if (Date.now() - this.lastRx > idle) return this.close('idle timeout');
    if (this.pingNonce !== null && Date.now() - this.lastRx > (this.opts.pingIntervalMs ?? 30_000)) return this.close('ping timeout');
    this.pingNonce = randomNonce64();
    this.send('ping', encodeU64(this.pingNonce));
  }

  send(command: string, payload?: Uint8Array): void {
    if (this.closed || !this.socket) return;
    this.socket.write(encodeMessage(this.opts.magic, command, payload));
  }

  close(reason: string, misbehaving = false): void {
    if (this.closed) return;
    this.closed = true;
    this.ready = false;
    for (const t of this.timers) clearTimeout(t);
    this.socket?.destroy();
    this.emit('close', reason, misbehaving);
  }

  private onData(chunk: Buffer): void {
    if (this.closed) return;
    this.lastRx = Date.now();
    this.bytesIn += chunk.length;
    let frames;
    try {
      frames = this.decoder.push(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
    } catch (e) {
      return this.close(`protocol violation: ${(e as Error).message}`, true);
    }
    for (const f of frames) {
      if (this.closed) return;
      try {
        this.handle(f.command, f.payload);
      } catch (e) {
        const bad = e instanceof WireError || (e instanceof Error && /Decode|Check|Wire/.test(e.name));
        this.close(`${bad ? 'bad' : 'unhandled'} ${f.command}: ${(e as Error).message}`, true);
      }
    }
  }

  private handle(command: string, payload: Uint8Array): void {
    switch (command) {
      case 'version': {
        if (this.remote) throw new WireError('version', 'duplicate version');
        this.remote = decodeVersion(payload);
        if (this.remote.version < 70001) return this.close(`peer protocol ${this.remote.version} too old`);
        this.send('verack');
        return this.maybeReady();
      }
      case 'verack':
        this.gotVerack = true;
        return this.maybeReady();
      case 'ping':
        if (payload.length >= 8) this.send('pong', payload.subarray(0, 8));
        return;
      case 'pong':
        if (this.pingNonce !== null && decodeU64(payload) === this.pingNonce) this.pingNonce = null;
        this.emit('message', command, payload);
        return;
    }
    if (!this.ready) throw new WireError('handshake', `${command} before the handshake`);
    this.emit('message', command, payload);
  }

  private maybeReady(): void {
    if (this.ready || !this.remote || !this.gotVerack) return;
    this.ready = true;
    this.send('sendheaders');
    this.emit('ready');
  }

  get hasBloom(): boolean {
    return !!this.remote && (this.remote.services & NODE_BLOOM) !== 0n;
  }
}
