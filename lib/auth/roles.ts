// Web-app roles (docs/api.md#authentication-and-scopes, docs/security.md) and the scopes each holds: the one role table. A signed-in
// user and an API key are checked by the same scope rule (lib/api/access.ts).
import { SCOPES, type Scope } from './scopes';

export const ROLES = ['owner', 'manager', 'cashier'] as const;
export type Role = (typeof ROLES)[number];

export function isRole(v: unknown): v is Role {
  return typeof v === 'string' && (ROLES as readonly string[]).includes(v);
}

const ROLE_SCOPES: Record<Role, readonly Scope[]> = {
  // Everything but routing a sale's coins to an address of the user's choosing: no web-app
  // role holds payments:outputs (only an API key created with it does).
  owner: SCOPES.filter((s) => s !== 'payments:outputs'),
  manager: ['payments:read', 'payments:write', 'payments:refund', 'invoices:read', 'reports:read', 'node:read'],
  // A cashier charges and sees its own sales at the counter; the back office is closed.
  cashier: ['payments:read', 'payments:write'],
};

export function roleScopes(role: Role): readonly Scope[] {
  return ROLE_SCOPES[role];
}

/** What a till-only session (opened with a PIN) may do, whatever the role: charge and see sales. */
const TILL_SCOPES: readonly Scope[] = ['payments:read', 'payments:write'];

/** The scopes of a signed-in session: its role's, narrowed to the till's for a PIN session. */
export function sessionScopes(user: { role: Role; tillOnly?: unknown }): readonly Scope[] {
  const scopes = roleScopes(user.role);
  return user.tillOnly ? scopes.filter((s) => TILL_SCOPES.includes(s)) : scopes;
}

/** A cashier lists, reopens and cancels only the payments it created; other roles see all. */
export function seesOnlyOwnSales(role: Role): boolean {
  return role === 'cashier';
}

/** Owner > manager > cashier. */
export function roleAtLeast(role: Role, min: Role): boolean {
  return ROLES.indexOf(role) <= ROLES.indexOf(min);
}
