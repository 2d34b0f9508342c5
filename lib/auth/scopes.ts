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

/**
 * Grants: finer than an API scope, for what a person may do with a password session but never at
 * the till with a PIN (docs/security.md#pin-sessions-hold-the-tills-grants-only). An API key holds
 * each grant through the scope named here, so the vendor API's contract stays the scope's.
 */
export const GRANTS = {
  /** POST /api/v1/payments/<id>/mark: settle or invalidate a payment by hand. */
  'payments:mark': 'payments:write',
} as const satisfies Record<string, Scope>;
export type Grant = keyof typeof GRANTS;

/** What a route asks of its caller: an API scope or a grant. */
export type Need = Scope | Grant;

/** The API scope through which a key holds `need`. */
export function keyScopeOf(need: Need): Scope {
  return Object.hasOwn(GRANTS, need) ? GRANTS[need as Grant] : (need as Scope);
}
