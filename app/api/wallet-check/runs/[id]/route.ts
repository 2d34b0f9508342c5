// GET /api/wallet-check/runs/<id> (docs/wallet-check.md#routes): the run's report; 404 for an unknown id.
import { appContext } from '@/lib/app-context';
import { handle, json, walletCheckContext } from '@/lib/api';
import { notFound } from '@/lib/errors';
import { runReport } from '@/lib/wallet-check';

export const dynamic = 'force-dynamic';

export function GET(_req: Request, { params }: { params: Promise<{ id: string }> }) {
  return handle(async () => {
    const check = walletCheckContext(await appContext());
    if (!check) throw notFound('the wallet check is not available here');
    const report = await runReport(check, (await params).id);
    if (!report) throw notFound('unknown wallet check run');
    return json(report);
  });
}
