// The HTTP answers for the refund errors (docs/api.md#errors vocabulary): the route stays thin, and
// lib/refunds throws typed errors without knowing HTTP.
import { jsonError } from './respond';
import { RateUnavailableError } from '../rates';
import { RefundConflictError } from '../refunds/request';
import { RefundNotFoundError } from '../refunds/create-refund';

/** The answer for a refund error, or null to let lib/api/handle map it (400, 5xx…). */
export function refundErrorResponse(e: unknown): Response | null {
  if (e instanceof RefundNotFoundError) return jsonError(404, 'not_found', e.message);
  if (e instanceof RefundConflictError) return jsonError(409, 'conflict', e.message);
  if (e instanceof RateUnavailableError) return jsonError(503, 'rate_unavailable', e.message);
  return null;
}
