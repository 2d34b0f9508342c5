// What each credential holds (lib/auth/roles.ts, lib/auth/scopes.ts): marking a payment is a grant
// of the owner's and the manager's password sessions, carried by payments:write for an API key,
// and never held by a PIN session, whatever its role (docs/security.md#pin-sessions-hold-the-tills-grants-only).
import { describe, expect, it } from 'vitest';
import { keyScopeOf, roleScopes, sessionNeeds, sessionScopes, SCOPES, ROLES } from '@/lib/auth';

const till = { tillOnly: { terminalId: 't' } };

describe('session grants', () => {
  it('owner and manager password sessions may mark; a cashier may not', () => {
    expect(sessionNeeds({ role: 'owner' })).toContain('payments:mark');
    expect(sessionNeeds({ role: 'manager' })).toContain('payments:mark');
    expect(sessionNeeds({ role: 'cashier' })).not.toContain('payments:mark');
  });
  it("a PIN session holds the till's needs only, whatever the role", () => {
    for (const role of ROLES) expect(sessionNeeds({ role, ...till })).toEqual(['payments:read', 'payments:write']);
    for (const role of ROLES) expect(sessionScopes({ role, ...till })).toEqual(['payments:read', 'payments:write']);
  });
  it('an API key holds the mark grant through payments:write; a scope is its own', () => {
    expect(keyScopeOf('payments:mark')).toBe('payments:write');
    for (const s of SCOPES) expect(keyScopeOf(s)).toBe(s);
  });
  it('grants are never API scopes: no role hands one to a key', () => {
    for (const role of ROLES) expect(roleScopes(role).every((s) => (SCOPES as readonly string[]).includes(s))).toBe(true);
  });
});
