import { appContext } from '@/lib/app-context';
import { handle, logout } from '@/lib/api';

export const dynamic = 'force-dynamic';

export function POST(req: Request) {
  return handle(async () => logout((await appContext()).db, req));
}
