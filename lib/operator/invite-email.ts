// The operator's invite goes to the owner's email (docs/architecture.md#data) through the
// installation's SMTP server (SMTP_URL / SMTP_FROM; a store's own SMTP settings are its own, for
// its receipts), through the one mail sender (lib/receipts sendMail). Without a server, or when sending fails, the invite link
// is still answered to the operator, who can pass it on; a failure is logged without the server's
// credentials and never fails the store's creation.
import { log } from '../log';
import { processEnv } from '../config';
import { escapeHtml, sendMail, smtpConfig } from '../receipts';

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
  const sent = await sendMail(smtp, { to: invite.to, ...renderInviteEmail(invite.storeName, invite.inviteUrl) }, opts.timeoutMs);
  if (sent.ok) return 'sent';
  log.warn('store invite email failed', { error: sent.message });
  return 'failed';
}
