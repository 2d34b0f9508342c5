// Settings changes as people make them in the back office: who may change what, and the audit
// trail (docs/using-counter.md#the-back-office-admin-and-the-invoice-listing). Only the owner changes the receiving wallet and the risk policy's
// limits (docs/security.md); a manager edits the rest. The settings themselves are validated and
// stored by lib/backoffice/settings.
import type { Db } from '../db';
import type { Network } from '../doge';
import type { Role } from '../auth';
import { AmountError, parseKoinu } from '../money';
import { readSettings, updateSettings, regenerateWebhookSecret, type SettingsView } from './settings';
import { BackofficeError } from './errors';
import { fieldChanges, recordAudit } from './audit';

export interface Actor {
  id: string;
  role: Role;
  /** The store it acts for: its settings are the ones changed. */
  storeId: number;
}

export const WALLET_FIELDS = ['store_xpub', 'store_address'] as const;
/**
 * The risk policy's limits: a manager who raised zero_conf_limit would make every sale 0-conf,
 * while lowering one payment's confirmations already needs the owner's payments:policy.
 */
export const RISK_LIMIT_FIELDS = ['zero_conf_limit', 'one_conf_limit'] as const;
/**
 * The risk policy's confirmation counts: a manager who lowered high_conf_required would lower
 * every large sale's confirmations, which for one payment already needs payments:policy.
 */
export const RISK_COUNT_FIELDS = ['one_conf_required', 'high_conf_required'] as const;

/** Whether a sent amount differs from the current one (one that does not parse is a change). */
function amountChanged(sent: unknown, current: string): boolean {
  if (sent === undefined) return false;
  if (typeof sent !== 'string') return true;
  try {
    return parseKoinu(sent.trim()) !== parseKoinu(current);
  } catch (e) {
    if (e instanceof AmountError) return true;
    throw e;
  }
}
/** Audited settings fields besides the wallet (the webhook secret's masked form is left out). */
const SETTINGS_FIELDS = [
  'name',
  'icon',
  'address',
  'url',
  'fee_per_kb',
  'max_size',
  'timeout',
  'zero_conf_limit',
  'one_conf_limit',
  'one_conf_required',
  'high_conf_required',
  'fiat_currency',
  'fiat_rate',
  'tips_enabled',
  'tip_percents',
  'till_lock_sec',
  'cash_enabled',
  'webhook_url',
  'pricing_currency',
  'timezone',
  'smtp_url',
  'smtp_from',
  'categories', // smtp_url as shown: its password masked
] as const satisfies readonly (keyof SettingsView)[];

/**
 * Applies a settings patch for `actor`: a wallet field or a risk limit or count that differs from the
 * current one is refused (403) unless the actor is an owner (the form sends unchanged fields
 * back, which is not a change). Logs `wallet.update` and `settings.update` entries for what
 * really changed.
 */
export async function changeSettings(db: Db, network: Network, actor: Actor, input: unknown): Promise<SettingsView> {
  const before = await readSettings(db, actor.storeId);
  if (actor.role !== 'owner' && input !== null && typeof input === 'object') {
    for (const f of WALLET_FIELDS) {
      const v = (input as Record<string, unknown>)[f];
      if (typeof v === 'string' && v.trim() !== before[f])
        throw new BackofficeError('forbidden', 'only the owner changes the receiving wallet', f);
    }
    for (const f of RISK_LIMIT_FIELDS) {
      if (amountChanged((input as Record<string, unknown>)[f], before[f]))
        throw new BackofficeError('forbidden', "only the owner changes the risk policy's limits", f);
    }
    for (const f of RISK_COUNT_FIELDS) {
      const v = (input as Record<string, unknown>)[f];
      if (v !== undefined && v !== before[f])
        throw new BackofficeError('forbidden', "only the owner changes the risk policy's confirmations", f);
    }
  }
  const after = await updateSettings(db, actor.storeId, network, input);
  const wallet = fieldChanges(before, after, WALLET_FIELDS);
  const rest = fieldChanges(before, after, SETTINGS_FIELDS);
  if (Object.keys(wallet).length) await recordAudit(db.prisma, actor.storeId, actor.id, 'wallet.update', wallet);
  if (Object.keys(rest).length) await recordAudit(db.prisma, actor.storeId, actor.id, 'settings.update', rest);
  return after;
}

/** A fresh webhook secret (returned once); the log says who regenerated it, never the secret. */
export async function regenerateWebhookSecretAs(db: Db, actor: Actor): Promise<string> {
  const secret = await regenerateWebhookSecret(db, actor.storeId);
  await recordAudit(db.prisma, actor.storeId, actor.id, 'webhook_secret.regenerate', {});
  return secret;
}
