import { appContext } from '@/lib/app-context';
import { handle, inviteAccept } from '@/lib/api';

export const dynamic = 'force-dynamic';

// The signed-in user takes a store's invite and becomes its owner (docs/architecture.md#data).
export function POST(req: Request, { params }: { params: Promise<{ token: string }> }) {
  return handle(async () => inviteAccept((await appContext()).db, req, (await params).token));
}
