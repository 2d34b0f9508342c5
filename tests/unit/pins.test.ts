import { describe, it, expect } from 'vitest';
import { pinProblem, hashPin, verifyPin, sessionScopes } from '@/lib/auth';
import { maySetPin } from '@/lib/backoffice/pins';

describe('staff PINs', () => {
  it('accepts 4 to 8 digits that are neither one repeated digit nor a straight run', () => {
    for (const ok of ['1357', '2580', '1243', '12345679', '0192', '9021', '13579', '1122']) expect(pinProblem(ok), ok).toBeNull();
  });
  it('refuses weak and malformed PINs', () => {
    for (const weak of ['0000', '1111', '99999999', '1234', '0123', '9876', '3210', '34567', '87654321', '5678']) {
      expect(pinProblem(weak), weak).toMatch(/repeated|straight run/);
    }
    for (const bad of ['', '123', '135', '123456789', '12a4', ' 1357', '１３５７', '13.5', '-135'])
      expect(pinProblem(bad), bad).not.toBeNull();
  });
  it('hashes with scrypt like passwords, salted, and verifies only the right PIN', async () => {
    const h = await hashPin('2580');
    expect(h).toMatch(/^scrypt\$15\$8\$1\$/);
    expect(h).not.toContain('2580');
    expect(await verifyPin('2580', h)).toBe(true);
    expect(await verifyPin('2581', h)).toBe(false);
    expect(await verifyPin('2580', null)).toBe(false);
    expect(await hashPin('2580')).not.toBe(h);
  });
  it("lets the owner set any PIN, a manager only cashiers', and everyone their own", () => {
    expect(maySetPin({ id: 'o', role: 'owner' }, 'm', 'manager')).toBe(true);
    expect(maySetPin({ id: 'm', role: 'manager' }, 'c', 'cashier')).toBe(true);
    expect(maySetPin({ id: 'm', role: 'manager' }, 'm2', 'manager')).toBe(false);
    expect(maySetPin({ id: 'm', role: 'manager' }, 'o', 'owner')).toBe(false);
    expect(maySetPin({ id: 'c', role: 'cashier' }, 'c', 'cashier')).toBe(true);
    expect(maySetPin({ id: 'c', role: 'cashier' }, 'c2', 'cashier')).toBe(false);
  });
  it("narrows a PIN session to the till's scopes whatever the role", () => {
    expect(sessionScopes({ role: 'owner', tillOnly: { terminalId: 't' } })).toEqual(['payments:read', 'payments:write']);
    expect(sessionScopes({ role: 'owner' })).toContain('reports:read');
  });
});
