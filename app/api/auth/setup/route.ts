import { appContext } from '@/lib/app-context';
import { handle, setup } from '@/lib/api';

export const dynamic = 'force-dynamic';

export function POST(req: Request) {
  return handle(async () => setup((await appContext()).db, req));
}
