// API scopes (docs/api.md#authentication-and-scopes): the one list of what a credential may do. An API key holds the
// scopes it was created with; a signed-in user holds its role's (lib/auth/roles.ts).
export const SCOPES = [
  'payments:read',
  'payments:write',
  /** p2pkh outputs in a new payment that pay anything but the store's own address. */
  'payments:outputs',
  /** required_confirmations below the store's risk policy for the payment's total. */
  'payments:policy',
  'payments:refund',
  'invoices:read',
  'reports:read',
  'node:read',
  'node:wallet',
] as const;
export type Scope = (typeof SCOPES)[number];

export function isScope(s: string): s is Scope {
  return (SCOPES as readonly string[]).includes(s);
}
