import { appContext } from '@/lib/app-context';
import { handle } from '@/lib/api/handle';
import { me } from '@/lib/api/auth-routes';

export const dynamic = 'force-dynamic';

export function GET(req: Request) {
  return handle(async () => me((await appContext()).db, req));
}
