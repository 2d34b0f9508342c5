// The report of a run (docs/wallet-check.md#the-report): the body of GET /api/wallet-check/runs/<id>
// and of its finish. Reading it settles what time alone decides: a refuse case passes once its
// envelope was fetched longer ago than the refuse window; at finish every refuse case still
// pending passes and every pay case still pending fails ("never paid").
import type { CaseName } from './cases';
import { CASE_RULES, DETAIL } from './rules';
import { decideCase, loadRun, loadRunCases, markFinished, nowOf, type CaseRow, type CheckContext } from './runs';

export const REFUSE_WINDOW_MS = 30_000;

export interface CaseReport {
  id: string;
  name: string;
  title: string;
  expect: 'pay' | 'refuse';
  uri: string;
  result: 'pending' | 'pass' | 'fail';
  detail: string;
}

export interface RunReport {
  id: string;
  created_at: string;
  finished_at: string | null;
  user_agents: string[];
  cases: CaseReport[];
}

/** Settles the cases time decides; true when any changed. */
async function settle(ctx: CheckContext, cases: CaseRow[], finishing: boolean): Promise<boolean> {
  const now = nowOf(ctx);
  const windowMs = ctx.refuseWindowMs ?? REFUSE_WINDOW_MS;
  let changed = false;
  for (const c of cases) {
    if (c.result !== 'pending') continue;
    if (c.expect === 'refuse') {
      if (c.fetchedAt && now.getTime() - c.fetchedAt.getTime() >= windowMs) {
        changed = (await decideCase(ctx.db, c.id, 'pass', DETAIL.refusedAfterFetch(Math.round(windowMs / 1000)), now)) || changed;
      } else if (finishing) {
        changed = (await decideCase(ctx.db, c.id, 'pass', c.fetchedAt ? DETAIL.refusedAtFinish : DETAIL.neverFetched, now)) || changed;
      }
    } else if (finishing) {
      changed = (await decideCase(ctx.db, c.id, 'fail', DETAIL.neverPaid, now)) || changed;
    }
  }
  return changed;
}

function toReport(c: CaseRow): CaseReport {
  return {
    id: c.id,
    name: c.name,
    title: CASE_RULES[c.name as CaseName]?.title ?? c.name,
    expect: c.expect,
    uri: c.uri,
    result: c.result,
    detail: c.detail,
  };
}

/** The run's report, or null for an unknown run. `finish` ends the run first. */
export async function runReport(ctx: CheckContext, runId: string, opts: { finish?: boolean } = {}): Promise<RunReport | null> {
  let run = await loadRun(ctx.db, runId);
  if (!run) return null;
  const finishing = !!opts.finish && run.finishedAt === null;
  let cases = await loadRunCases(ctx.db, runId);
  if (run.finishedAt === null && (await settle(ctx, cases, finishing))) cases = await loadRunCases(ctx.db, runId);
  if (finishing) {
    await markFinished(ctx.db, runId, nowOf(ctx));
    run = (await loadRun(ctx.db, runId))!;
  }
  return {
    id: run.id,
    created_at: run.createdAt.toISOString(),
    finished_at: run.finishedAt?.toISOString() ?? null,
    user_agents: run.userAgents,
    cases: cases.map(toReport),
  };
}

/** The report as plain text, for a developer to paste into a bug report. */
export function reportText(r: RunReport): string {
  const lines = [`Counter wallet check ${r.id} (${r.created_at})`, `User agents: ${r.user_agents.join(', ') || '(none yet)'}`, ''];
  for (const c of r.cases) lines.push(`[${c.result.toUpperCase()}] ${c.name} (${c.expect}): ${c.title}${c.detail ? ` — ${c.detail}` : ''}`);
  return lines.join('\n') + '\n';
}
