// POST /api/v1/payments/<id>/receipt { "email": "<address>" } (docs/using-counter.md#reports-and-receipts), without the HTTP
// framework: who may send, what is sent, and the answer.
//   202 { "sent": true, "to", "message_id" }  the SMTP server accepted the message
//   400 invalid_request                        not a plain mailbox (CR/LF/NUL, display names… refused)
//   404 not_found                              unknown id, or (cashier) not one of its own sales
//   409 conflict                               the payment is not paid (accepted or confirmed)
//   429 rate_limited (Retry-After)             per payment / per user or key, per hour
//   503 smtp_not_configured                    no SMTP server in settings or environment
//   502 smtp_failed                            the server refused, failed, or could not be reached
import type { Db } from '../db/client';
import { log } from '../log';
import { emailProblem } from './address';
import { sendReceiptEmail, smtpConfig } from './email';
import { receiptLimits } from './email-limit';
import { loadReceipt } from './receipt';
import { FIRST_STORE_ID, findStore } from '../stores';

export interface ReceiptActor {
  /** 'user:<id>' or 'key:<id>': whose hourly budget this send counts against. */
  key: string;
  /** The signed-in user's id and role (null for an API key). */
  userId: string | null;
  role: string | null;
  /** A PIN session's registered till: a cashier there may also send that till's sales' receipts (docs/counter.md). */
  tillOf?: string | null;
}

export interface Answer {
  status: number;
  body: Record<string, unknown>;
  headers?: Record<string, string>;
}

const err = (status: number, error: string, message: string, headers?: Record<string, string>): Answer => ({ status, body: { error, message }, headers });

export async function emailReceipt(db: Db, id: string, input: unknown, actor: ReceiptActor, opts: { timeoutMs?: number; env?: Record<string, string | undefined> } = {}): Promise<Answer> {
  const email = input && typeof input === 'object' && !Array.isArray(input) ? (input as Record<string, unknown>).email : undefined;
  if (email === undefined) return err(400, 'invalid_request', 'email: is required');
  const problem = emailProblem(email);
  if (problem) return err(400, 'invalid_request', `email: ${problem}`);
  const to = email as string;

  const r = await loadReceipt(db, id);
  if (!r) return err(404, 'not_found', 'no payment with this id');
  // A cashier, over its own sales only (docs/api.md#authentication-and-scopes): another cashier's sale does not exist for it.
  if (actor.role === 'cashier' && r.createdBy !== actor.userId && !(actor.tillOf && actor.tillOf === r.terminalId)) return err(404, 'not_found', 'no payment with this id');
  if (r.status !== 'accepted' && r.status !== 'confirmed') return err(409, 'conflict', `the payment is ${r.state}: a receipt is emailed once it is paid (accepted or confirmed)`);

  const store = await findStore(db, FIRST_STORE_ID);
  const smtp = smtpConfig(store, opts.env);
  if (!smtp) return err(503, 'smtp_not_configured', 'no SMTP server is set up: set SMTP_URL and SMTP_FROM, or the SMTP settings in the back office');

  const limits = receiptLimits(opts.env);
  const wait = Math.max(limits.payment.wait(`p:${r.id}`), limits.sender.wait(actor.key));
  if (wait > 0) return err(429, 'rate_limited', 'too many receipt emails: try again later', { 'Retry-After': String(wait) });
  limits.payment.hit(`p:${r.id}`);
  limits.sender.hit(actor.key);

  const sent = await sendReceiptEmail(r, to, smtp, opts.timeoutMs);
  if (!sent.ok) {
    log.warn('receipt email failed', { payment: r.id, error: sent.message });
    return err(502, 'smtp_failed', `the receipt was not sent: ${sent.message}`);
  }
  log.info('receipt emailed', { payment: r.id });
  return { status: 202, body: { sent: true, to, message_id: sent.messageId } };
}
