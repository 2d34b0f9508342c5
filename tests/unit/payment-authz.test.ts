// Who may ask for what in a new payment (docs/api.md#authentication-and-scopes): pure checks over a priced request.
import { describe, expect, it } from 'vitest';
import { priceRequest } from '@/lib/payments/creation/request';
import { authorizePaymentRequest } from '@/lib/payments/creation/authz';
import { ForbiddenFieldError } from '@/lib/payments/creation/errors';
import { roleScopes, SCOPES } from '@/lib/auth';
import { MAINNET, encodeAddress } from '@/lib/doge';

const OWN = 'DPD7uK4B1kRmbfGmytBhG1DZjaMWNfbpwY';
const ELSEWHERE = encodeAddress('p2pkh', new Uint8Array(20).fill(7), MAINNET);
const POLICY = { storeAddress: '', zeroConfLimit: 0n, oneConfLimit: 1_000_000_000_000n, oneConfRequired: 1, highConfRequired: 6 };
const priced = (body: Record<string, unknown>) =>
  priceRequest({ items: [{ type: 'item', id: 'a', name: 'A', count: 1, unit: '5000' }], ...body }, MAINNET);

function refused(fn: () => void, field: string) {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(ForbiddenFieldError);
    expect((e as ForbiddenFieldError).field).toBe(field);
    return;
  }
  throw new Error(`expected 403 naming ${field}`);
}

describe('roles and scopes', () => {
  it('match docs/api.md', () => {
    expect(SCOPES).toEqual([
      'payments:read',
      'payments:write',
      'payments:outputs',
      'payments:policy',
      'payments:refund',
      'invoices:read',
      'reports:read',
      'node:read',
      'node:wallet',
    ]);
    expect(roleScopes('owner')).toEqual(SCOPES.filter((s) => s !== 'payments:outputs'));
    expect(roleScopes('manager')).toEqual([
      'payments:read',
      'payments:write',
      'payments:refund',
      'invoices:read',
      'reports:read',
      'node:read',
    ]);
    expect(roleScopes('cashier')).toEqual(['payments:read', 'payments:write']);
  });
});

describe('authorizePaymentRequest', () => {
  const steal = priced({ outputs: [{ address: ELSEWHERE, amount: '5000' }] });

  it('p2pkh outputs to another address need payments:outputs, which no role holds', () => {
    for (const role of ['owner', 'manager', 'cashier'] as const)
      refused(() => authorizePaymentRequest(steal, POLICY, roleScopes(role)), 'outputs[0].address');
    expect(() => authorizePaymentRequest(steal, POLICY, ['payments:write', 'payments:outputs'])).not.toThrow();
  });

  it("paying the store's own fixed address needs no extra scope", () => {
    const own = priced({ outputs: [{ address: OWN, amount: '5000' }] });
    expect(() => authorizePaymentRequest(own, { ...POLICY, storeAddress: OWN }, roleScopes('cashier'))).not.toThrow();
    refused(() => authorizePaymentRequest(own, POLICY, roleScopes('cashier')), 'outputs[0].address');
  });

  it('required_confirmations below the policy for the total needs payments:policy', () => {
    for (const role of ['manager', 'cashier'] as const)
      refused(() => authorizePaymentRequest(priced({ required_confirmations: 0 }), POLICY, roleScopes(role)), 'required_confirmations');
    expect(() => authorizePaymentRequest(priced({ required_confirmations: 0 }), POLICY, roleScopes('owner'))).not.toThrow();
    expect(() => authorizePaymentRequest(priced({ required_confirmations: 1 }), POLICY, roleScopes('cashier'))).not.toThrow();
    expect(() => authorizePaymentRequest(priced({ required_confirmations: 9 }), POLICY, roleScopes('cashier'))).not.toThrow();
    // Above the 1-conf limit the policy asks 6: 3 is lowering it.
    const huge = priceRequest(
      { items: [{ type: 'item', id: 'a', name: 'A', count: 1, unit: '20000' }], required_confirmations: 3 },
      MAINNET,
    );
    refused(() => authorizePaymentRequest(huge, POLICY, ['payments:write']), 'required_confirmations');
    // Within the zero-conf tier, 0 is the policy itself.
    expect(() =>
      authorizePaymentRequest(priced({ required_confirmations: 0 }), { ...POLICY, zeroConfLimit: 1_000_000_000_000n }, ['payments:write']),
    ).not.toThrow();
  });
});
