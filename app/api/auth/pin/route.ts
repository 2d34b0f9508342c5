// POST /api/auth/pin { user_id, pin } (terminal cookie required): PIN sign-in to the till only.
import { appContext } from '@/lib/app-context';
import { handle } from '@/lib/api/handle';
import { pinLogin } from '@/lib/api/pin-routes';

export const dynamic = 'force-dynamic';

export function POST(req: Request) {
  return handle(async () => pinLogin((await appContext()).db, req));
}
