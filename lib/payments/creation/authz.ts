// Who may ask for what in a new payment (docs/api.md#authentication-and-scopes, "Who may do what"): field-level scope
// checks on top of payments:write. Pure: the caller brings the priced request, the store's
// settings and the credential's scopes.
import type { Scope } from '../../auth';
import type { PricedRequest } from './request';
import type { StoreSettings } from '../store-settings';
import { requiredConfirmations } from '../risk';
import { ForbiddenFieldError } from './errors';

/**
 * Throws ForbiddenFieldError (403, naming the field) when the request
 * - brings p2pkh outputs paying anything but the store's own address without payments:outputs
 *   (no web-app role holds it: a cashier can never route a sale's coins elsewhere), or
 * - asks for fewer confirmations than the store's risk policy sets for its total without
 *   payments:policy.
 */
export function authorizePaymentRequest(
  priced: PricedRequest,
  settings: Pick<StoreSettings, 'storeAddress' | 'zeroConfLimit' | 'oneConfLimit' | 'oneConfRequired' | 'highConfRequired'>,
  scopes: readonly Scope[],
): void {
  if (!scopes.includes('payments:outputs')) {
    const own = settings.storeAddress;
    const i = priced.outputs.findIndex((o) => o.type === 'p2pkh' && (!own || o.address !== own));
    if (i >= 0) {
      throw new ForbiddenFieldError(
        `outputs[${i}].address`,
        "paying an address other than the store's own needs the payments:outputs scope (an API key created with it)",
      );
    }
  }
  const asked = priced.request.required_confirmations;
  if (asked !== undefined && !scopes.includes('payments:policy')) {
    const policy = requiredConfirmations(priced.total, settings);
    if (asked < policy) {
      throw new ForbiddenFieldError(
        'required_confirmations',
        `the store's policy asks ${policy} for this total; fewer needs the payments:policy scope`,
      );
    }
  }
}
