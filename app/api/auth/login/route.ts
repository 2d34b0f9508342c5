import { appContext } from '@/lib/app-context';
import { handle, login } from '@/lib/api';

export const dynamic = 'force-dynamic';

export function POST(req: Request) {
  return handle(async () => login((await appContext()).db, req));
}
