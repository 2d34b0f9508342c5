// Web-app roles (DESIGN.md §9) and what each may do. API scopes and roles meet here, so a
// signed-in user and an API key are checked by the same rule.
import type { Scope } from './scopes';

export const ROLES = ['owner', 'manager', 'cashier'] as const;
export type Role = (typeof ROLES)[number];

export function isRole(v: unknown): v is Role {
  return typeof v === 'string' && (ROLES as readonly string[]).includes(v);
}

const ROLE_SCOPES: Record<Role, readonly Scope[]> = {
  owner: ['payments:read', 'payments:write', 'invoices:read', 'node:read', 'node:wallet'],
  manager: ['payments:read', 'payments:write', 'invoices:read', 'node:read'],
  // A cashier charges and sees the sales it needs at the counter; the back office is closed.
  cashier: ['payments:read', 'payments:write'],
};

export function roleScopes(role: Role): readonly Scope[] {
  return ROLE_SCOPES[role];
}

/** Owner > manager > cashier. */
export function roleAtLeast(role: Role, min: Role): boolean {
  return ROLES.indexOf(role) <= ROLES.indexOf(min);
}
