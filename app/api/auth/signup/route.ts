import { appContext } from '@/lib/app-context';
import { handle, signup } from '@/lib/api';

export const dynamic = 'force-dynamic';

// An account and a store of its own, when SIGNUP=open (docs/configuration.md).
export function POST(req: Request) {
  return handle(async () => signup((await appContext()).db, req));
}
