// Web-app roles (docs/api.md#authentication-and-scopes, docs/security.md) and what each holds: the one role table. A signed-in
// user and an API key are checked by the same rule (lib/api/access.ts): a route names one Need.
import { SCOPES, isScope, type Need, type Scope } from './scopes';

export const ROLES = ['owner', 'manager', 'cashier'] as const;
export type Role = (typeof ROLES)[number];

export function isRole(v: unknown): v is Role {
  return typeof v === 'string' && (ROLES as readonly string[]).includes(v);
}

const ROLE_NEEDS: Record<Role, readonly Need[]> = {
  // Everything but routing a sale's coins to an address of the user's choosing: no web-app
  // role holds payments:outputs (only an API key created with it does).
  owner: [...SCOPES.filter((s) => s !== 'payments:outputs'), 'payments:mark'],
  manager: ['payments:read', 'payments:write', 'payments:refund', 'invoices:read', 'reports:read', 'node:read', 'payments:mark'],
  // A cashier charges and sees its own sales at the counter; the back office is closed.
  cashier: ['payments:read', 'payments:write'],
};

/** A role's API scopes (what an owner-scoped key gets): its needs without the grants. */
export function roleScopes(role: Role): readonly Scope[] {
  return ROLE_NEEDS[role].filter(isScope);
}

/**
 * What a till-only session (opened with a PIN) may do, whatever the role: charge, take cash,
 * cancel or re-charge its sale, email the receipt, see its sales and its shift. Nothing the back
 * office decides (marking, refunds, reports of the whole store) is here (docs/counter.md).
 */
const TILL_NEEDS: readonly Need[] = ['payments:read', 'payments:write'];

/** Everything a signed-in session holds: its role's, narrowed to the till's for a PIN session. */
export function sessionNeeds(user: { role: Role; tillOnly?: unknown }): readonly Need[] {
  const needs = ROLE_NEEDS[user.role];
  return user.tillOnly ? needs.filter((n) => TILL_NEEDS.includes(n)) : needs;
}

/** The API scopes of a signed-in session (for field-level checks such as payments:outputs). */
export function sessionScopes(user: { role: Role; tillOnly?: unknown }): readonly Scope[] {
  return sessionNeeds(user).filter(isScope);
}

/** A cashier lists, reopens and cancels only the payments it created; other roles see all. */
export function seesOnlyOwnSales(role: Role): boolean {
  return role === 'cashier';
}

/** Owner > manager > cashier. */
export function roleAtLeast(role: Role, min: Role): boolean {
  return ROLES.indexOf(role) <= ROLES.indexOf(min);
}
