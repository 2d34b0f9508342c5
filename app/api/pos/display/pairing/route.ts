// POST /api/pos/display/pairing (session + terminal cookie): a pairing code for this till's
// customer display (docs/counter.md#the-customers-display).
import { handle, pairingCode } from '@/lib/api';
import { appContext } from '@/lib/app-context';

export const dynamic = 'force-dynamic';

export function POST(req: Request) {
  return handle(async () => pairingCode((await appContext()).db, req));
}
