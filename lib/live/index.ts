// The live path (docs/live.md): what the till, the checkout page and the
// customer's display use to follow payments. A payment's committed change is announced by the
// database (a trigger's NOTIFY: in-process on PGlite, LISTEN/NOTIFY across processes on
// PostgreSQL), and one feed hub per process hands it to every stream that watches it.
export { PAYMENT_CHANNEL, paymentChanges, type ChangeFeed, type ChangeSubscriber } from './payment-changes';
export {
  FeedHub,
  FEED_POLL_MS,
  FEED_SAFETY_POLL_MS,
  paymentProbeState,
  type FeedSource,
  type FeedWatcher,
  type FeedHubOptions,
  type ProbeState,
} from './feed-hub';
export { isExpiredProbe, isFinalProbe, probeFingerprint, type FeedProbe } from './feed-probe';
export { paymentEventStream, openFeedCount, sseEvent, SSE_HEADERS, FEED_DEFAULTS, type FeedOptions } from './payment-feed';
export { paymentFeedHub, paymentFeedSource } from './payment-feed-db';
export {
  streamSlots,
  streamLimitsFromEnv,
  clientStreamKey,
  STREAMS_PER_USER,
  DEFAULT_MAX_STREAMS,
  DEFAULT_CHECKOUT_STREAMS_PER_CLIENT,
  maxStreamsFromEnv,
  type StreamSlots,
  type StreamLimits,
  type SlotGrant,
} from './stream-slots';
export { channelChanges } from './payment-changes';
export { DisplayHub, displayHub, DISPLAY_CHANNEL, type DisplayWatcher } from './display-hub';
export { displayEventStream, type DisplayFeedOptions } from './display-feed';
