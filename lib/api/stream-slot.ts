// A slot for one live update stream (docs/security.md): the caller's own cap (per API key, or per
// signed-in user across its sessions: 429) and this process's (MAX_STREAMS: 503).
import { streamSlots, STREAMS_PER_USER } from '../live';
import type { Granted } from './vendor-route';
import { jsonError } from './respond';

/** A held slot to release when the stream closes, or the refusal to answer with. */
export function acquireStreamSlot(auth: Granted): { release(): void } | Response {
  const slot = streamSlots().acquire(auth.kind === 'api_key' ? `key:${auth.keyId}` : `user:${auth.user.id}`);
  if (slot.ok) return slot;
  return slot.reason === 'user'
    ? jsonError(429, 'too_many_streams', `at most ${STREAMS_PER_USER} live streams may be open at once per API key or user; close one first`, { 'Retry-After': '5' })
    : jsonError(503, 'unavailable', 'this server has as many live streams open as it serves; retry later', { 'Retry-After': '5' });
}
