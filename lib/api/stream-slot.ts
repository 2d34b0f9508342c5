// A slot for one live update stream (docs/security.md). A signed-in stream counts against its
// caller (per API key, or per signed-in user across its sessions: 429) and this process
// (MAX_STREAMS: 503). An anonymous checkout stream counts against its payment (429), its client
// address (MAX_CHECKOUT_STREAMS_PER_CLIENT: 429), the anonymous budget (MAX_CHECKOUT_STREAMS:
// 503) and the process; it can never take the slots kept for signed-in streams.
import { streamSlots, STREAMS_PER_USER, type SlotGrant } from '../live';
import type { Granted } from './vendor-route';
import { clientAddress } from './client-address';
import { errorResponse } from './error-table';

const RETRY = { headers: { 'Retry-After': '5' } };
const busy = () => errorResponse('unavailable', 'this server has as many live streams open as it serves; retry later', RETRY);

/** A held slot to release when the stream closes, or the refusal to answer with. */
export function acquireStreamSlot(auth: Granted): { release(): void } | Response {
  const slot = streamSlots().acquire(auth.kind === 'api_key' ? `key:${auth.keyId}` : `user:${auth.user.id}`);
  if (slot.ok) return slot;
  return slot.reason === 'user'
    ? errorResponse(
        'too_many_streams',
        `at most ${STREAMS_PER_USER} live streams may be open at once per API key or user; close one first`,
        RETRY,
      )
    : busy();
}

/** The slot of an anonymous stream of the checkout page of payment `id`, or the refusal. */
export function acquireCheckoutStreamSlot(req: Request, id: string): { release(): void } | Response {
  const slots = streamSlots();
  const slot: SlotGrant = slots.acquireAnonymous(`checkout:${id}`, clientAddress(req));
  if (slot.ok) return slot;
  if (slot.reason === 'user') {
    return errorResponse('too_many_streams', `at most ${STREAMS_PER_USER} live streams may be open at once per payment`, RETRY);
  }
  if (slot.reason === 'client') {
    return errorResponse(
      'too_many_streams',
      `at most ${slots.checkoutPerClient} checkout streams may be open at once from one address`,
      RETRY,
    );
  }
  return busy();
}
