// POST /api/auth/pin { user_id, pin } (terminal cookie required): PIN sign-in to the till only.
import { appContext } from '@/lib/app-context';
import { handle, pinLogin } from '@/lib/api';

export const dynamic = 'force-dynamic';

export function POST(req: Request) {
  return handle(async () => pinLogin((await appContext()).db, req));
}
