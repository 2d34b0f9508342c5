// `pay`: /relay/pay round trips per second to an accepted payment (PGlite and PostgreSQL, at 1,
// 16 and 64 clients), target ≥ 300/s on the devnet backend. TODO: needs the in-process devnet
// chain backend (lib/chain/devnet*, another engineer's work) to accept payments without a node;
// the rpc-backend figure needs litecoind and wallet-signed transactions per request.
export default {
  name: 'pay',
  description: '/relay/pay accepted payments/s (devnet backend), target ≥ 300/s',
  available: 'not yet available: needs the devnet chain backend',
};
