// lib/webhooks: delivering the vendor event outbox to the store's webhook URL (docs/api.md#webhooks).
// lib/payments writes the events and their delivery state (outbox.ts); this module signs each
// body, checks where it may go, sends it, and schedules the retries.
export {
  startWebhookLoop,
  deliverDueEvents,
  redeliver,
  redactUrl,
  EVENT_ID_HEADER,
  WEBHOOK_USER_AGENT,
  type WebhookLoop,
  type WebhookLoopOptions,
  type DeliverOptions,
  type DeliverResult,
} from './delivery';
export { signWebhook, verifyWebhookSignature, SIGNATURE_HEADER, type VerifyOptions } from './signature';
export { nextAttemptAt, nextAttemptDelayMs, WEBHOOK_RETRY_WINDOW_MS } from './backoff';
export { webhookUrlProblem, isPrivateAddress, WebhookAddressError } from './address';
