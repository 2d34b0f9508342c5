import { appContext } from '@/lib/app-context';
import { handle, switchStore } from '@/lib/api';

export const dynamic = 'force-dynamic';

export function POST(req: Request) {
  return handle(async () => switchStore((await appContext()).db, req));
}
