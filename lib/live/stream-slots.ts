// Caps on open live update streams (docs/api.md#live-updates, docs/security.md): at most 10
// per user (an API key, a signed-in user across all its sessions, a paired display) and
// MAX_STREAMS per process (default 2,000). A slot is taken before a stream opens and given back
// when it closes, for whatever reason. The counts are this process's own: with several web
// processes each one enforces its caps.
//
// The checkout page's stream needs no sign-in (anyone holding a checkout link opens it), so
// anonymous streams get a smaller budget inside MAX_STREAMS: at most MAX_CHECKOUT_STREAMS of
// them (default a quarter of MAX_STREAMS), at most 10 per payment and at most
// MAX_CHECKOUT_STREAMS_PER_CLIENT per client address (an IPv6 client by its /64, which one
// machine usually holds whole). So MAX_STREAMS − MAX_CHECKOUT_STREAMS slots are the signed-in
// streams' alone: however many checkout links are handed out, a till's stream still opens.
// Signed-in streams may also take room the anonymous ones leave free; the process total stays
// MAX_STREAMS, which is what the app's heap is sized for (docs/configuration.md, APP_HEAP_MB).
import { isIP } from 'node:net';
import { z } from 'zod';
import { ipv6Groups } from '../net';
import { processEnv } from '../config';

export const STREAMS_PER_USER = 10;
export const DEFAULT_MAX_STREAMS = 2000;
/** Anonymous checkout streams from one client address (or IPv6 /64) at once. */
export const DEFAULT_CHECKOUT_STREAMS_PER_CLIENT = 20;

type Env = Record<string, string | undefined>;
const count = (max: number) => z.coerce.number().int().min(0).max(max);

/** MAX_STREAMS from the environment; a missing or invalid value gives the default. */
export function maxStreamsFromEnv(env: Env = processEnv()): number {
  const v = count(1_000_000)
    .min(1)
    .safeParse(env.MAX_STREAMS?.trim() || undefined);
  return v.success ? v.data : DEFAULT_MAX_STREAMS;
}

/** The default anonymous budget: a quarter of the process's. */
export const defaultCheckoutStreams = (maxStreams: number) => Math.floor(maxStreams / 4);

export interface StreamLimits {
  maxStreams: number;
  /** Anonymous (checkout) streams at once; always below maxStreams. */
  maxCheckoutStreams: number;
  /** Anonymous streams per client address at once. */
  checkoutPerClient: number;
}

/**
 * MAX_STREAMS, MAX_CHECKOUT_STREAMS and MAX_CHECKOUT_STREAMS_PER_CLIENT; a missing or invalid
 * value gives its default, and the anonymous budget is held below MAX_STREAMS so that signed-in
 * streams always keep some.
 */
export function streamLimitsFromEnv(env: Env = processEnv()): StreamLimits {
  const maxStreams = maxStreamsFromEnv(env);
  const anon = count(1_000_000).safeParse(env.MAX_CHECKOUT_STREAMS?.trim() || undefined);
  const perClient = count(1_000_000)
    .min(1)
    .safeParse(env.MAX_CHECKOUT_STREAMS_PER_CLIENT?.trim() || undefined);
  return {
    maxStreams,
    maxCheckoutStreams: Math.min(maxStreams - 1, anon.success ? anon.data : defaultCheckoutStreams(maxStreams)),
    checkoutPerClient: perClient.success ? perClient.data : DEFAULT_CHECKOUT_STREAMS_PER_CLIENT,
  };
}

/**
 * The key an anonymous client's streams are counted under: an IPv4 address as it is, an IPv6
 * address by its /64 (a single host or home network gets a whole /64 to pick addresses from).
 */
export function clientStreamKey(address: string): string {
  if (isIP(address) !== 6) return address;
  return `${ipv6Groups(address)
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(':')}::/64`;
}

export type SlotGrant = { ok: true; release(): void } | { ok: false; reason: 'user' | 'client' | 'checkout' | 'process' };

/** Decrements `key` in `m`, dropping it at zero (the maps hold only keys with open streams). */
function drop(m: Map<string, number>, key: string): void {
  const n = (m.get(key) ?? 1) - 1;
  if (n <= 0) m.delete(key);
  else m.set(key, n);
}

export class StreamSlots {
  private total = 0;
  private anonymous = 0;
  /** Open streams per user, display or (anonymous) payment. */
  private readonly byUser = new Map<string, number>();
  /** Open anonymous streams per client key (clientStreamKey). */
  private readonly byClient = new Map<string, number>();

  constructor(
    readonly maxStreams = DEFAULT_MAX_STREAMS,
    readonly perUser = STREAMS_PER_USER,
    readonly maxCheckoutStreams = defaultCheckoutStreams(maxStreams),
    readonly checkoutPerClient = DEFAULT_CHECKOUT_STREAMS_PER_CLIENT,
  ) {}

  get open(): number {
    return this.total;
  }

  /** Anonymous (checkout) streams open. */
  get openAnonymous(): number {
    return this.anonymous;
  }

  /** Keys with a stream open (users, payments and clients): zero once every stream has closed. */
  get keysHeld(): number {
    return this.byUser.size + this.byClient.size;
  }

  openFor(user: string): number {
    return this.byUser.get(user) ?? 0;
  }

  openForClient(address: string): number {
    return this.byClient.get(clientStreamKey(address)) ?? 0;
  }

  /** A signed-in stream's slot for `user` (e.g. "key:<id>" or "user:<id>"); release() is idempotent. */
  acquire(user: string): SlotGrant {
    if (this.openFor(user) >= this.perUser) return { ok: false, reason: 'user' };
    if (this.total >= this.maxStreams) return { ok: false, reason: 'process' };
    return this.take(user, null);
  }

  /**
   * An anonymous stream's slot, counted against `payment` (at most perUser), the client's
   * address (checkoutPerClient) and the anonymous budget (maxCheckoutStreams) as well as the
   * process's; release() is idempotent.
   */
  acquireAnonymous(payment: string, clientAddress: string): SlotGrant {
    const client = clientStreamKey(clientAddress);
    if (this.openFor(payment) >= this.perUser) return { ok: false, reason: 'user' };
    if ((this.byClient.get(client) ?? 0) >= this.checkoutPerClient) return { ok: false, reason: 'client' };
    if (this.anonymous >= this.maxCheckoutStreams) return { ok: false, reason: 'checkout' };
    if (this.total >= this.maxStreams) return { ok: false, reason: 'process' };
    return this.take(payment, client);
  }

  private take(user: string, client: string | null): SlotGrant {
    this.byUser.set(user, this.openFor(user) + 1);
    this.total++;
    if (client !== null) {
      this.byClient.set(client, (this.byClient.get(client) ?? 0) + 1);
      this.anonymous++;
    }
    let held = true;
    return {
      ok: true,
      release: () => {
        if (!held) return;
        held = false;
        this.total--;
        drop(this.byUser, user);
        if (client !== null) {
          this.anonymous--;
          drop(this.byClient, client);
        }
      },
    };
  }
}

const g = globalThis as { __counterStreamSlots?: StreamSlots };

/** This process's slots (MAX_STREAMS and the checkout limits read on first use). */
export function streamSlots(): StreamSlots {
  if (!g.__counterStreamSlots) {
    const l = streamLimitsFromEnv();
    g.__counterStreamSlots = new StreamSlots(l.maxStreams, STREAMS_PER_USER, l.maxCheckoutStreams, l.checkoutPerClient);
  }
  return g.__counterStreamSlots;
}
