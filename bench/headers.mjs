// `headers`: header sync from a regtest litecoind holding 20,000+ blocks, headers/s and peak RSS,
// against a second litecoind syncing the same chain over P2P (target ≥ 0.5×). TODO: needs the
// spv P2P node (lib/p2p, lib/chain/spv*, another engineer's work).
export default {
  name: 'headers',
  description: 'spv header sync vs litecoind, target ≥ 0.5×',
  available: 'not yet available: needs the spv P2P node',
};
