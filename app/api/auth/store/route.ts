import { appContext } from '@/lib/app-context';
import { handle } from '@/lib/api/handle';
import { switchStore } from '@/lib/api/auth-routes';

export const dynamic = 'force-dynamic';

export function POST(req: Request) {
  return handle(async () => switchStore((await appContext()).db, req));
}
