import { appContext } from '@/lib/app-context';
import { handle } from '@/lib/api/handle';
import { setup } from '@/lib/api/auth-routes';

export const dynamic = 'force-dynamic';

export function POST(req: Request) {
  return handle(async () => setup((await appContext()).db, req));
}
