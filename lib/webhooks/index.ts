// lib/webhooks: delivering the vendor event outbox to the store's webhook URL (docs/api.md#webhooks).
// lib/payments writes the events and their delivery state (outbox.ts); this module signs each
// body, checks where it may go, sends it, and schedules the retries.
export { startWebhookLoop, redeliver, type WebhookLoop } from './delivery';

export { webhookUrlProblem } from './address';
