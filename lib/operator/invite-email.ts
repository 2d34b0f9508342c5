// The operator's invite goes to the owner's email (docs/architecture.md#data) through the
// installation's SMTP server (SMTP_URL / SMTP_FROM; a store's own SMTP settings are its own, for
// its receipts), in a real SMTP conversation by nodemailer. Without a server, or when sending fails, the invite link
// is still answered to the operator, who can pass it on; a failure is logged without the server's
// credentials and never fails the store's creation.
import nodemailer from 'nodemailer';
import { log } from '../log';
import { processEnv } from '../config';
import { escapeHtml, scrubSecrets, smtpConfig } from '../receipts';

export type InviteMailResult = 'sent' | 'not_configured' | 'failed';

/** The invite's text and HTML parts. */
export function renderInviteEmail(storeName: string, inviteUrl: string): { subject: string; text: string; html: string } {
  const subject = `You are invited to own ${storeName} on Counter`;
  const text = [
    `You are invited to own the store “${storeName}” on Counter.`,
    '',
    `Open this link to create your account, or to accept with the account you have:`,
    inviteUrl,
    '',
    'The link works once and for 7 days.',
  ].join('\n');
  const e = escapeHtml;
  const html = `<!doctype html><html><body style="font-family:system-ui,sans-serif;color:#111">
<p>You are invited to own the store “${e(storeName)}” on Counter.</p>
<p><a href="${e(inviteUrl)}">Take the invite</a></p>
<p style="color:#555;word-break:break-all">${e(inviteUrl)}</p>
<p style="color:#555">The link works once and for 7 days.</p>
</body></html>`;
  return { subject, text: text + '\n', html };
}

/** Sends the invite to `to`; what became of it (the link is answered to the operator whatever it is). */
export async function mailInvite(
  invite: { to: string; storeName: string; inviteUrl: string },
  opts: { env?: Record<string, string | undefined>; timeoutMs?: number } = {},
): Promise<InviteMailResult> {
  const smtp = smtpConfig(null, opts.env ?? processEnv());
  if (!smtp) return 'not_configured';
  const timeoutMs = opts.timeoutMs ?? 15_000;
  const mail = renderInviteEmail(invite.storeName, invite.inviteUrl);
  const transport = nodemailer.createTransport({
    url: smtp.url,
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs * 2,
    logger: false,
    debug: false,
  } as never);
  try {
    const info = await transport.sendMail({ from: smtp.from, to: invite.to, ...mail, disableFileAccess: true, disableUrlAccess: true });
    if ((info.accepted ?? []).length === 0) throw new Error(`the SMTP server refused the recipient: ${info.response ?? ''}`);
    return 'sent';
  } catch (e) {
    const err = e as { code?: string; response?: string; message?: string };
    const detail = scrubSecrets(`${err.code ? err.code + ': ' : ''}${err.response ?? err.message ?? String(e)}`.slice(0, 500), smtp.url);
    log.warn('store invite email failed', { error: detail });
    return 'failed';
  } finally {
    transport.close();
  }
}
