// POST /api/v1/payments/<id>/receipt { "email": "<address>" } (docs/using-counter.md#reports-and-receipts), without the HTTP
// framework: who may send, what is sent, and the refusals, as domain errors by code (the route
// answers 202 with the result; lib/api/error-table.ts gives each code its status):
//   invalid_request        not a plain mailbox (CR/LF/NUL, display names… refused)
//   not_found              unknown id, or (cashier) not one of its own sales
//   conflict               the payment is not paid (accepted or confirmed)
//   rate_limited           per payment / per user or key, per hour (with when to retry)
//   smtp_not_configured    no SMTP server in settings or environment
//   smtp_failed            the server refused, failed, or could not be reached
import type { Db } from '../db';
import { DomainError, InvalidRequestError, conflict, notFound } from '../errors';
import { log } from '../log';
import { emailProblem } from './address';
import { sendReceiptEmail, smtpConfig } from './email';
import { receiptLimits } from './email-limit';
import { loadReceipt } from './receipt';
import { findStore } from '../stores';

export interface ReceiptActor {
  /** The caller's store: another store's sale is not found. */
  storeId: number;
  /** 'user:<id>' or 'key:<id>': whose hourly budget this send counts against. */
  key: string;
  /** The signed-in user's id and role (null for an API key). */
  userId: string | null;
  role: string | null;
  /** A PIN session's registered till: a cashier there may also send that till's sales' receipts (docs/counter.md). */
  tillOf?: string | null;
}

export interface ReceiptSent {
  sent: true;
  to: string;
  message_id: string;
}

export async function emailReceipt(
  db: Db,
  id: string,
  input: unknown,
  actor: ReceiptActor,
  opts: { timeoutMs?: number; env?: Record<string, string | undefined> } = {},
): Promise<ReceiptSent> {
  const email = input && typeof input === 'object' && !Array.isArray(input) ? (input as Record<string, unknown>).email : undefined;
  if (email === undefined) throw new InvalidRequestError('email', 'is required');
  const problem = emailProblem(email);
  if (problem) throw new InvalidRequestError('email', problem);
  const to = email as string;

  const r = await loadReceipt(db, actor.storeId, id);
  if (!r) throw notFound('no payment with this id');
  // A cashier, over its own sales only (docs/api.md#authentication-and-scopes): another cashier's sale does not exist for it.
  if (actor.role === 'cashier' && r.createdBy !== actor.userId && !(actor.tillOf && actor.tillOf === r.terminalId))
    throw notFound('no payment with this id');
  if (r.status !== 'accepted' && r.status !== 'confirmed')
    throw conflict(`the payment is ${r.state}: a receipt is emailed once it is paid (accepted or confirmed)`);

  const store = await findStore(db, actor.storeId);
  const smtp = smtpConfig(store, opts.env);
  if (!smtp)
    throw new DomainError(
      'smtp_not_configured',
      'no SMTP server is set up: set SMTP_URL and SMTP_FROM, or the SMTP settings in the back office',
    );

  const limits = receiptLimits(opts.env);
  const wait = Math.max(limits.payment.wait(`p:${r.id}`), limits.sender.wait(actor.key));
  if (wait > 0) throw new DomainError('rate_limited', 'too many receipt emails: try again later').retryAfter(wait);
  limits.payment.hit(`p:${r.id}`);
  limits.sender.hit(actor.key);

  const sent = await sendReceiptEmail(r, to, smtp, opts.timeoutMs);
  if (!sent.ok) {
    log.warn('receipt email failed', { payment: r.id, error: sent.message });
    throw new DomainError('smtp_failed', `the receipt was not sent: ${sent.message}`);
  }
  log.info('receipt emailed', { payment: r.id });
  return { sent: true, to, message_id: sent.messageId };
}
