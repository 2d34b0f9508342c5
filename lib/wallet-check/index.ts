// lib/wallet-check: Counter as a bench for DogeConnect wallets (docs/wallet-check.md). Runs of
// cases a wallet must pay or refuse, the relay's port for their ids, the chain watch that sees
// a wallet broadcasting on its own, and the report.
export { createRun, RUNS_PER_MINUTE, KEEP_RUNS_MS, type CheckContext, type CreateResult } from './runs';
export { runReport, reportText, REFUSE_WINDOW_MS, type RunReport, type CaseReport } from './report';
export { walletCheckRelay, checkEnvelope, type RelayPortContext } from './relay-port';
export { observeCheckTxs } from './watch';
export { CASE_NAMES, PAY_CASES, REFUSE_CASES, expectOf, type CaseName, type Expect } from './cases';
export { CASE_RULES } from './rules';
export { walletCheckEnabled } from './gate';
