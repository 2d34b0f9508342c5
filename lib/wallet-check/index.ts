// lib/wallet-check: Counter as a bench for DogeConnect wallets (docs/wallet-check.md). Runs of
// cases a wallet must pay or refuse, the relay's port for their ids, the chain watch that sees
// a wallet broadcasting on its own, and the report.
export { createRun, RUNS_PER_MINUTE, type CheckContext } from './runs';
export { runReport, type RunReport, type CaseReport } from './report';
export { walletCheckRelay, checkEnvelope, type RelayPortContext } from './relay-port';
export { observeCheckTxs } from './watch';
export { CASE_NAMES, type CaseName } from './cases';

export { walletCheckEnabled } from './gate';
