import { describe, it, expect } from 'vitest';
import { hashPassword, verifyPassword, passwordProblem, cookieValue, roleAtLeast, roleScopes } from '@/lib/auth';

describe('passwords', () => {
  it('hashes with scrypt and verifies only the right password', async () => {
    const h = await hashPassword('correct horse battery');
    expect(h).toMatch(/^scrypt\$15\$8\$1\$[\w-]{22}\$[\w-]{43}$/);
    expect(await verifyPassword('correct horse battery', h)).toBe(true);
    expect(await verifyPassword('correct horse batterY', h)).toBe(false);
    expect(await hashPassword('correct horse battery')).not.toBe(h); // salted
  });
  it('rejects malformed stored hashes and out-of-range parameters', async () => {
    expect(await verifyPassword('x', 'plain')).toBe(false);
    expect(await verifyPassword('x', 'scrypt$30$8$1$AAAA$BBBB')).toBe(false);
  });
  it('names the problem with a weak password', () => {
    expect(passwordProblem('short')).toMatch(/at least 12/);
    expect(passwordProblem('long enough pw')).toBeNull();
  });
});

describe('roles and cookies', () => {
  it('orders roles and grants scopes', () => {
    expect(roleAtLeast('owner', 'manager')).toBe(true);
    expect(roleAtLeast('cashier', 'manager')).toBe(false);
    expect(roleScopes('cashier')).not.toContain('invoices:read');
    expect(roleScopes('owner')).toContain('node:wallet');
  });
  it('reads one cookie', () => {
    expect(cookieValue('a=1; counter_session=abc%2D; b=2', 'counter_session')).toBe('abc-');
    expect(cookieValue('a=1', 'counter_session')).toBeNull();
  });
});
