import { appContext } from '@/lib/app-context';
import { handle, inviteAccount } from '@/lib/api';

export const dynamic = 'force-dynamic';

// A visitor takes a store's invite with a new account (docs/architecture.md#data).
export function POST(req: Request, { params }: { params: Promise<{ token: string }> }) {
  return handle(async () => inviteAccount((await appContext()).db, req, (await params).token));
}
