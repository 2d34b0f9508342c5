// Strict email address checks for receipts: the address goes into an SMTP envelope and a header,
// so anything but a plain ASCII mailbox is refused (no CR/LF/NUL, no display names, no comments,
// no quoted local parts, no IP literals).
const LOCAL = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;
const LABEL = /^[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;

/** A reason the address is refused, or null when it is a plain mailbox like "ann@example.com". */
export function emailProblem(v: unknown): string | null {
  if (typeof v !== 'string') return 'must be a string';
  if (/[\u0000-\u001f\u007f]/.test(v)) return 'must not contain control characters (CR, LF, NUL…)';
  if (v.length > 254) return 'is too long';
  const at = v.lastIndexOf('@');
  if (at <= 0 || at === v.length - 1) return 'must be an address like name@example.com';
  const local = v.slice(0, at);
  const domain = v.slice(at + 1);
  if (local.length > 64 || !LOCAL.test(local)) return 'has an invalid part before the @';
  const labels = domain.split('.');
  if (labels.length < 2 || !labels.every((l) => LABEL.test(l)) || /^\d+$/.test(labels.at(-1)!)) return 'has an invalid domain';
  return null;
}

/** A sender: "addr@example.com" or "Name <addr@example.com>" (name without quotes or angle brackets). */
export function senderProblem(v: string): string | null {
  if (/[\u0000-\u001f\u007f]/.test(v)) return 'must not contain control characters';
  const m = /^\s*([^<>"]{0,100}?)\s*<([^<>]+)>\s*$/.exec(v);
  return emailProblem(m ? m[2] : v.trim());
}
