// The store settings receipts need (docs/using-counter.md#reports-and-receipts, docs/configuration.md), kept apart from the rest of the settings:
// the time zone (IANA name) and the SMTP server. The SMTP password is a secret: the view only
// says whether one is set and shows the URL with the password masked; a PATCH that sends the
// masked URL back keeps the stored password.
import { z } from 'zod';
import { isValidTimeZone, storeTimeZone } from '../time';
import { senderProblem } from './address';

export const PASSWORD_MASK = '••••••••';

export interface ReceiptSettingsView {
  /** The setting as saved ('' = the default). */
  timezone: string;
  /** The zone in force: the setting, else env TZ, else UTC. */
  timezone_in_force: string;
  smtp_url: string;
  smtp_password_set: boolean;
  smtp_from: string;
}

interface Row {
  timezone: string;
  smtpUrl: string;
  smtpFrom: string;
}

/** smtp(s)://user:pass@host:port with the password replaced by the mask; '' stays ''. */
export function maskSmtpUrl(url: string): string {
  if (!url) return '';
  try {
    const u = new URL(url);
    if (u.password) u.password = encodeURIComponent(PASSWORD_MASK);
    return decodeURIComponent(u.toString());
  } catch {
    return '(invalid)';
  }
}

export function receiptSettingsView(s: Row): ReceiptSettingsView {
  let pw = false;
  try {
    pw = !!s.smtpUrl && new URL(s.smtpUrl).password !== '';
  } catch {
    /* shown as invalid */
  }
  return {
    timezone: s.timezone,
    timezone_in_force: storeTimeZone(s.timezone),
    smtp_url: maskSmtpUrl(s.smtpUrl),
    smtp_password_set: pw,
    smtp_from: s.smtpFrom,
  };
}

export function smtpUrlProblem(v: string): string | null {
  if (v === '') return null;
  if (/[\s\u0000-\u001f]/.test(v)) return 'must not contain spaces or control characters';
  try {
    const u = new URL(v);
    if (u.protocol !== 'smtp:' && u.protocol !== 'smtps:') return 'must start with smtp:// or smtps://';
    if (!u.hostname) return 'needs a host';
    return null;
  } catch {
    return 'must be a URL like smtp://user:password@host:587';
  }
}

export const receiptSettingsFields = {
  timezone: z
    .string()
    .max(64)
    .refine((v) => v === '' || isValidTimeZone(v), 'must be an IANA time zone like America/New_York, or empty for the default')
    .optional(),
  smtp_url: z
    .string()
    .max(2000)
    .superRefine((v, c) => {
      const problem = smtpUrlProblem(v);
      if (problem) c.addIssue({ code: 'custom', message: problem });
    })
    .optional(),
  smtp_from: z
    .string()
    .max(300)
    .refine((v) => v === '' || senderProblem(v) === null, 'must be an address like "Store <receipts@example.com>", or empty')
    .optional(),
};

/** Fields only the owner may change (the SMTP password is a secret; the zone is store-wide). */
export const OWNER_ONLY_FIELDS = ['timezone', 'smtp_url', 'smtp_from'] as const;

/** The column updates for a validated patch. */
export function receiptSettingsData(p: { timezone?: string; smtp_url?: string; smtp_from?: string }, current: Row): Record<string, string> {
  const data: Record<string, string> = {};
  if (p.timezone !== undefined) data.timezone = p.timezone;
  if (p.smtp_from !== undefined) data.smtpFrom = p.smtp_from.trim();
  if (p.smtp_url !== undefined) {
    let url = p.smtp_url;
    try {
      const u = new URL(url);
      if (url && decodeURIComponent(u.password) === PASSWORD_MASK) {
        // the masked URL came back: keep the saved password
        const old = current.smtpUrl ? new URL(current.smtpUrl).password : '';
        u.password = old;
        url = u.toString();
      }
    } catch {
      /* '' */
    }
    data.smtpUrl = url;
  }
  return data;
}
