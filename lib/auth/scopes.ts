// API key scopes (DESIGN.md §3, §6, §7). An owner key holds all of them.
export const SCOPES = [
  'payments:read',
  'payments:write',
  'invoices:read',
  'node:read',
  'node:wallet',
] as const;
export type Scope = (typeof SCOPES)[number];

export function isScope(s: string): s is Scope {
  return (SCOPES as readonly string[]).includes(s);
}
