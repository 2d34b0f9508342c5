import { appContext } from '@/lib/app-context';
import { handle, me } from '@/lib/api';

export const dynamic = 'force-dynamic';

export function GET(req: Request) {
  return handle(async () => me((await appContext()).db, req));
}
