// The live path (docs/live.md): what the till, the checkout page and the
// customer's display use to follow payments. A payment's committed change is announced by the
// database (a trigger's NOTIFY: in-process on PGlite, LISTEN/NOTIFY across processes on
// PostgreSQL), and one feed hub per process hands it to every stream that watches it.
export { paymentChanges } from './payment-changes';
export { FeedHub, type FeedWatcher } from './feed-hub';

export { paymentEventStream, openFeedCount, SSE_HEADERS } from './payment-feed';
export { paymentFeedHub, paymentFeedSource } from './payment-feed-db';
export { streamSlots, STREAMS_PER_USER, type SlotGrant } from './stream-slots';

export { displayEventStream } from './display-feed';
