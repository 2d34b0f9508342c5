// Email receipts (docs/using-counter.md#reports-and-receipts): the same receipt model as the printed page, as a plain-text and
// an HTML part, sent through the store's SMTP server (settings, else env SMTP_URL / SMTP_FROM) in
// a real SMTP conversation by nodemailer. The SMTP password never leaves this module: errors are
// reported by code and server reply, scrubbed of the URL's credentials.
import nodemailer from 'nodemailer';
import type { Receipt } from './receipt';
import { senderProblem } from './address';
import { receiptAmount } from './model';
import { processEnv } from '../config';

export interface SmtpConfig {
  url: string;
  from: string;
}

/** The SMTP server in force: the back-office setting, else the environment; null when none. */
export function smtpConfig(
  store: { smtpUrl: string; smtpFrom: string } | null,
  env: Record<string, string | undefined> = processEnv(),
): SmtpConfig | null {
  const url = store?.smtpUrl || env.SMTP_URL?.trim() || '';
  const from = store?.smtpFrom || env.SMTP_FROM?.trim() || '';
  if (!url || !from || senderProblem(from) !== null) return null;
  return { url, from };
}

const STATE_TEXT: Record<string, string> = { confirmed: 'Paid', accepted: 'Paid (awaiting confirmations)' };

export interface ReceiptEmail {
  subject: string;
  text: string;
  html: string;
}

/** An amount of the receipt's currency: "22.05 DOGE"-style figures stay bare in DOGE lines; fiat through Intl ("$5.97"). */
const money = (r: Receipt, v: string) => (r.currency === 'DOGE' ? v : receiptAmount(v, r.currency, 'en-US'));
const total = (r: Receipt, v: string) => receiptAmount(v, r.currency, 'en-US', { dogeSuffix: true });

function lineDetail(r: Receipt, l: Receipt['lines'][number]): string {
  const parts: string[] = [];
  if (l.count !== null && l.unit) parts.push(`${l.count} × ${money(r, l.unit)}`);
  if (l.tax) parts.push(`incl. tax ${money(r, l.tax)}`);
  return parts.join(', ');
}

/** Below the total of a fiat-priced sale: the DOGE paid and the rate it was locked at (value, sources, time in the store's zone). */
function paidAtRate(r: Receipt): [string, string] | null {
  if (r.currency === 'DOGE' || !r.rate || r.tender === 'cash') return null;
  return [
    `Paid ${r.dogeTotal} DOGE`,
    `at 1 DOGE = ${r.rate.value} ${r.currency} (${r.rate.source}${r.rate.atText ? `, ${r.rate.atText}` : ''})`,
  ];
}

export function renderReceiptEmail(r: Receipt): ReceiptEmail {
  const ref = r.orderReference || r.id.slice(0, 10);
  const subject = `Receipt from ${r.storeName} (${ref})`;
  const t: string[] = [r.storeName];
  if (r.storeAddress) t.push(r.storeAddress);
  if (r.storeUrl) t.push(r.storeUrl);
  t.push('', `${r.createdAtText}  ·  ${ref}`, '');
  for (const l of r.lines) {
    t.push(`${l.name}`);
    if (l.desc) t.push(`  ${l.desc}`);
    const d = lineDetail(r, l);
    t.push(`  ${d ? d + '  ' : ''}= ${total(r, l.total)}`);
  }
  t.push('', `Total: ${total(r, r.total)}`);
  if (r.taxes) t.push(`of which tax: ${total(r, r.taxes)}`);
  const paid = paidAtRate(r);
  // A cash sale (docs/counter.md#cash): paid in cash, with the change; no address or transaction.
  const cash = r.tender === 'cash' ? [`Paid with Cash: ${total(r, r.cashReceived)}`, `Change: ${total(r, r.change)}`] : null;
  if (cash) t.push(...cash);
  else if (paid) t.push(...paid);
  else if (r.fiatTotal) t.push(`≈ ${r.fiatTotal} ${r.fiatCurrency}${r.fiatTax ? ` (tax ${r.fiatTax})` : ''}`);
  t.push('', `${STATE_TEXT[r.status] ?? r.state}${r.confirmedAtText ? ` · ${r.confirmedAtText}` : ''}`);
  if (r.txid) t.push(`Transaction: ${r.txid}`);
  if (!cash) t.push(`Paid in Dogecoin to ${r.address}`);
  t.push('', 'Thank you!');

  const e = escapeHtml;
  const rows = r.lines
    .map((l) => {
      const d = lineDetail(r, l);
      return `<tr><td style="padding:4px 0;vertical-align:top">${e(l.name)}${l.desc ? `<br><small style="color:#555">${e(l.desc)}</small>` : ''}${d ? `<br><small style="color:#555">${e(d)}</small>` : ''}</td><td style="padding:4px 0 4px 12px;text-align:right;white-space:nowrap;vertical-align:top">${e(total(r, l.total))}</td></tr>`;
    })
    .join('');
  const html = `<!doctype html><html><body style="font-family:ui-monospace,Menlo,monospace;font-size:13px;color:#111">
<div style="max-width:420px;margin:0 auto">
<h1 style="font-size:18px;text-align:center;margin:0">${e(r.storeName)}</h1>
${r.storeAddress ? `<p style="text-align:center;margin:0;color:#555">${e(r.storeAddress)}</p>` : ''}
${r.storeUrl ? `<p style="text-align:center;margin:0;color:#555">${e(r.storeUrl)}</p>` : ''}
<p style="color:#555">${e(r.createdAtText)} · ${e(ref)}</p>
<table style="width:100%;border-collapse:collapse"><tbody>${rows}</tbody><tfoot>
<tr><td style="border-top:1px dashed #999;font-weight:800;padding-top:6px">Total</td><td style="border-top:1px dashed #999;font-weight:800;text-align:right;padding-top:6px">${e(total(r, r.total))}</td></tr>
${r.taxes ? `<tr><td>of which tax</td><td style="text-align:right">${e(total(r, r.taxes))}</td></tr>` : ''}
${
  cash
    ? cash
        .map((c) => {
          const [k, v] = c.split(': ');
          return `<tr><td>${e(k)}</td><td style="text-align:right">${e(v)}</td></tr>`;
        })
        .join('')
    : paid
      ? `<tr><td>Paid</td><td style="text-align:right">${e(r.dogeTotal)} DOGE</td></tr><tr><td colspan="2" style="color:#555">${e(paid[1])}</td></tr>`
      : r.fiatTotal
        ? `<tr><td>≈ ${e(r.fiatCurrency)}</td><td style="text-align:right">${e(r.fiatTotal)}${r.fiatTax ? ` (tax ${e(r.fiatTax)})` : ''}</td></tr>`
        : ''
}
</tfoot></table>
<p style="text-align:center;font-weight:800">${e(STATE_TEXT[r.status] ?? r.state)}${r.confirmedAtText ? ` · ${e(r.confirmedAtText)}` : ''}</p>
${r.txid ? `<p style="font-size:11px;color:#555;word-break:break-all">Transaction<br><code>${e(r.txid)}</code></p>` : ''}
${cash ? '' : `<p style="font-size:11px;color:#555;word-break:break-all">Paid in Dogecoin to <code>${e(r.address)}</code></p>`}
<p style="text-align:center">Thank you!</p>
</div></body></html>`;
  return { subject, text: t.join('\n') + '\n', html };
}

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

export type SendResult = { ok: true; messageId: string } | { ok: false; message: string };

/** Removes the URL's user and password (raw and URL-decoded) from a text. */
export function scrubSecrets(text: string, url: string): string {
  let out = text;
  try {
    const u = new URL(url);
    for (const s of [u.password, decodeURIComponent(u.password), u.username, decodeURIComponent(u.username)]) {
      if (s && s.length >= 3) out = out.split(s).join('•••');
    }
  } catch {
    /* nothing to scrub */
  }
  return out;
}

/** Sends one receipt. `timeoutMs` bounds connecting, the greeting and each reply. */
export async function sendReceiptEmail(r: Receipt, to: string, smtp: SmtpConfig, timeoutMs = 15_000): Promise<SendResult> {
  return sendMail(smtp, { to, ...renderReceiptEmail(r) }, timeoutMs);
}

/**
 * Sends one message through `smtp` in a real SMTP conversation (nodemailer), the one way Counter
 * sends mail: receipts and the operator's invites. A refusal or failure comes back as a message
 * without the server's credentials. `timeoutMs` bounds connecting, the greeting and each reply.
 */
export async function sendMail(
  smtp: SmtpConfig,
  mail: { to: string; subject: string; text: string; html: string },
  timeoutMs = 15_000,
): Promise<SendResult> {
  // (the second argument of createTransport is message defaults: transport options go with the url)
  const transport = nodemailer.createTransport({
    url: smtp.url,
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs * 2,
    logger: false,
    debug: false,
  } as never);
  try {
    const info = await transport.sendMail({
      from: smtp.from,
      to: mail.to,
      subject: mail.subject,
      text: mail.text,
      html: mail.html,
      disableFileAccess: true,
      disableUrlAccess: true,
    });
    const rejected = (info.rejected ?? []).length;
    if (rejected > 0 || (info.accepted ?? []).length === 0)
      return { ok: false, message: scrubSecrets(`the SMTP server refused the recipient: ${info.response ?? ''}`.trim(), smtp.url) };
    return { ok: true, messageId: info.messageId ?? '' };
  } catch (e) {
    const err = e as { code?: string; response?: string; responseCode?: number; message?: string };
    const detail = err.response ? `${err.response}` : (err.message ?? String(e));
    return { ok: false, message: scrubSecrets(`${err.code ? err.code + ': ' : ''}${detail}`.slice(0, 500), smtp.url) };
  } finally {
    transport.close();
  }
}
