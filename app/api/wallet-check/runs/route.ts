// POST /api/wallet-check/runs (docs/wallet-check.md#routes): starts a run, no sign-in; at most 10 a
// minute per client, then 429 with Retry-After. 404 where the wallet check does not run.
import { appContext } from '@/lib/app-context';
import { handle, json, clientAddress, walletCheckContext } from '@/lib/api';
import { DomainError, notFound } from '@/lib/errors';
import { createRun, runReport } from '@/lib/wallet-check';

export const dynamic = 'force-dynamic';

export function POST(req: Request) {
  return handle(async () => {
    const check = walletCheckContext(await appContext());
    if (!check) throw notFound('the wallet check is not available here');
    const made = await createRun(check, clientAddress(req));
    if (!made.ok) {
      throw new DomainError('rate_limited', 'too many wallet check runs: try again later').retryAfter(made.retryAfterSec);
    }
    const report = (await runReport(check, made.runId))!;
    return json(
      {
        id: report.id,
        report_url: `${check.publicUrl}/wallet-check?run=${encodeURIComponent(report.id)}`,
        cases: report.cases.map((c) => ({ id: c.id, name: c.name, expect: c.expect, uri: c.uri })),
      },
      201,
    );
  });
}
