// Is this store ready to take money? (docs/operations.md#readiness.) Pure: the caller gathers the facts
// (wallet, chain worker's published state, database, configuration), this decides and words the
// problems for the operator (GET /api/health, the back office checklist) and for the cashier
// (the till). No I/O and no server imports: the till's client code uses it too.
import { DomainError } from './errors';

export type ProblemCode =
  | 'no_wallet'
  | 'wallet_invalid'
  | 'no_peers'
  | 'rpc_unreachable'
  | 'not_synced'
  | 'worker_silent'
  | 'db_unreachable'
  | 'public_url_not_https'
  | 'public_url_localhost';

export interface Problem {
  code: ProblemCode;
  message: string;
}

export interface Readiness {
  ready: boolean;
  problems: Problem[];
}

export interface ReadinessFacts {
  network: 'mainnet' | 'testnet' | 'regtest';
  backend: 'spv' | 'rpc' | 'devnet';
  publicUrl: string;
  dbReachable: boolean;
  /** The store's receiving wallet: set and valid for the network, not set, set but unusable, or not known (db down). */
  wallet: 'ok' | 'none' | 'invalid' | 'unknown';
  /**
   * What the chain worker last published; null when it is not known (db down). `silentSec`: how
   * long ago it last reported (absent before its first report).
   */
  chain: { synced: boolean; peers: number; tip: number; silentSec?: number } | null;
}

/** A chain worker that has not reported for this long is taken to be stopped: its view is stale. */
export const WORKER_SILENT_SEC = 120;

/** Host names that only ever mean this machine: localhost, *.localhost, 127.0.0.0/8, ::1, 0.0.0.0 (and ::). */
export function isLocalHost(hostname: string): boolean {
  let h = hostname.trim().toLowerCase().replace(/\.$/, '');
  if (h.startsWith('[') && h.endsWith(']')) h = h.slice(1, -1);
  if (h === 'localhost' || h.endsWith('.localhost')) return true;
  if (h === '0.0.0.0' || h === '::' || h === '::1' || h === '0:0:0:0:0:0:0:1') return true;
  if (/^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h)) return true;
  // IPv4-mapped loopback as WHATWG URL spells it: [::ffff:7f00:1] (::ffff:127.x.y.z).
  const mapped = /^::ffff:([0-9a-f]{1,4}):[0-9a-f]{1,4}$/.exec(h);
  if (mapped && parseInt(mapped[1], 16) >> 8 === 127) return true;
  if (/^::ffff:127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h)) return true;
  return false;
}

function publicUrlProblems(publicUrl: string): Problem[] {
  let url: URL | null;
  try {
    url = new URL(publicUrl);
  } catch {
    url = null;
  }
  const out: Problem[] = [];
  if (!url || url.protocol !== 'https:') {
    out.push({
      code: 'public_url_not_https',
      message: `PUBLIC_URL is ${publicUrl}: on mainnet it must start with https:// so customers' wallets can reach the store securely. Set PUBLIC_URL to the store's public https:// address and restart.`,
    });
  }
  if (url && isLocalHost(url.hostname)) {
    out.push({
      code: 'public_url_localhost',
      message: `PUBLIC_URL points at this computer (${url.hostname}), which customers' wallets cannot reach. Set PUBLIC_URL to the store's public address and restart.`,
    });
  }
  return out;
}

/** The readiness decision: every problem that stands between this store and taking money. */
export function assessReadiness(f: ReadinessFacts): Readiness {
  const problems: Problem[] = [];
  if (f.wallet === 'none') {
    problems.push({
      code: 'no_wallet',
      message:
        "No receiving wallet is set up, so there is nowhere for payments to go. Add your wallet's watch-only account key (xpub) or a receive address in Settings, or set STORE_XPUB or STORE_ADDRESS.",
    });
  } else if (f.wallet === 'invalid') {
    problems.push({
      code: 'wallet_invalid',
      message: `The receiving wallet in Settings is not a valid ${f.network} account key or address. Enter a correct one in Settings.`,
    });
  }
  if (!f.dbReachable) {
    problems.push({
      code: 'db_unreachable',
      message: 'The database is not answering. Check that the database server is running and that DATABASE_URL is right.',
    });
  }
  if (f.chain && (f.chain.silentSec ?? 0) > WORKER_SILENT_SEC) {
    problems.push({
      code: 'worker_silent',
      message: `The chain worker has not reported for ${Math.floor(f.chain.silentSec! / 60)} minutes: it may have stopped, and then nothing is watching for payments. Check that Counter's worker is running (WORKER=embedded in one process) and see its log.`,
    });
  } else if (f.chain) {
    if (f.chain.peers < 1) {
      problems.push(
        f.backend === 'rpc'
          ? {
              code: 'rpc_unreachable',
              message:
                'Counter cannot reach its Dogecoin Core node. Check that the node is running and that DOGE_RPC_URL (address, user and password) is right; see Node status.',
            }
          : {
              code: 'no_peers',
              message:
                "Counter is not connected to any Dogecoin peer, so it cannot see payments. Check the server's internet connection and DOGE_PEERS; see Node status.",
            },
      );
    }
    if (!f.chain.synced) {
      problems.push({
        code: 'not_synced',
        message: `Counter is still catching up with the Dogecoin blockchain (at block ${f.chain.tip}). Payments can be taken once it has caught up; see Node status for progress.`,
      });
    }
  }
  if (f.network === 'mainnet') problems.push(...publicUrlProblems(f.publicUrl));
  return { ready: problems.length === 0, problems };
}

/** What each problem means for the person at the till, in a few words. */
const CASHIER_REASON: Record<ProblemCode, string> = {
  no_wallet: 'no receiving wallet is set up',
  wallet_invalid: 'the receiving wallet is not set up correctly',
  no_peers: 'it is not connected to the Dogecoin network',
  rpc_unreachable: 'it cannot reach its Dogecoin node',
  not_synced: 'it is still catching up with the Dogecoin network',
  worker_silent: 'it has lost track of the Dogecoin network',
  db_unreachable: 'its database is not answering',
  public_url_not_https: 'its web address is not set up for real payments',
  public_url_localhost: 'its web address is not set up for real payments',
};

/**
 * The cashier's explanation as message keys (messages/*.json, namespace "notReady"): one key per
 * distinct reason, and whether waiting is all it takes. The translated till builds its sentence
 * from these; `cashierExplanation` is the English one.
 */
export function cashierReasonKeys(codes: readonly string[]): { reasons: string[]; onlyWaiting: boolean } {
  const known = codes.filter((c): c is ProblemCode => c in CASHIER_REASON);
  const keys = known.map((c) => (c === 'public_url_not_https' || c === 'public_url_localhost' ? 'public_url' : c));
  return { reasons: [...new Set(keys)], onlyWaiting: known.length > 0 && known.every((c) => c === 'not_synced') };
}

/** One sentence for the cashier: why the till cannot charge, and what to do about it. */
export function cashierExplanation(codes: readonly string[]): string {
  const known = codes.filter((c): c is ProblemCode => c in CASHIER_REASON);
  const reasons = [...new Set(known.map((c) => CASHIER_REASON[c]))];
  if (reasons.length === 0) return "Counter can't take payments yet. Ask the owner.";
  const onlyWaiting = known.every((c) => c === 'not_synced');
  return `Counter can't take payments yet: ${reasons.join('; ')}. ${onlyWaiting ? 'Please wait a few minutes; the till will unlock by itself.' : 'Ask the owner.'}`;
}

export interface ChecklistItem {
  id: 'wallet' | 'network' | 'sync' | 'database' | 'public_url';
  title: string;
  done: boolean;
  /** The problems behind an unticked item (empty when done). */
  problems: Problem[];
  /** Where the operator fixes it in the back office (null: the environment, as the problem says). */
  href: string | null;
  linkText: string;
}

const ITEMS: { id: ChecklistItem['id']; title: string; codes: ProblemCode[]; href: string | null; linkText: string }[] = [
  {
    id: 'wallet',
    title: 'Receiving wallet set up',
    codes: ['no_wallet', 'wallet_invalid'],
    href: '/admin/settings',
    linkText: 'Open Settings',
  },
  {
    id: 'network',
    title: 'Connected to the Dogecoin network',
    codes: ['no_peers', 'rpc_unreachable'],
    href: '/admin/node',
    linkText: 'Open Node status',
  },
  { id: 'sync', title: 'Blockchain caught up', codes: ['not_synced', 'worker_silent'], href: '/admin/node', linkText: 'Open Node status' },
  { id: 'database', title: 'Database answering', codes: ['db_unreachable'], href: null, linkText: '' },
  {
    id: 'public_url',
    title: 'Public https:// address (PUBLIC_URL)',
    codes: ['public_url_not_https', 'public_url_localhost'],
    href: null,
    linkText: '',
  },
];

/** The back office's first-run checklist: every readiness condition, ticked when it holds (the public address on mainnet only). */
export function readinessChecklist(problems: readonly Problem[], network: ReadinessFacts['network']): ChecklistItem[] {
  return ITEMS.filter((i) => i.id !== 'public_url' || network === 'mainnet').map(({ codes, ...item }) => {
    const mine = problems.filter((p) => codes.includes(p.code));
    return { ...item, done: mine.length === 0, problems: mine };
  });
}

/** The till tried to charge while the store is not ready: 503 `not_ready` with the problems. */
export class StoreNotReadyError extends DomainError {
  constructor(readonly problems: Problem[]) {
    super('not_ready', cashierExplanation(problems.map((p) => p.code)), '', { problems });
    this.name = 'StoreNotReadyError';
  }
}

/** By name as well as class: Next.js may bundle this module into more than one chunk. */
export function isStoreNotReady(e: unknown): e is StoreNotReadyError {
  return (
    e instanceof StoreNotReadyError ||
    (e instanceof Error && e.name === 'StoreNotReadyError' && Array.isArray((e as StoreNotReadyError).problems))
  );
}
