import { appContext } from '@/lib/app-context';
import { handle, setLocale } from '@/lib/api';

export const dynamic = 'force-dynamic';

export function POST(req: Request) {
  return handle(async () => setLocale((await appContext()).db, req), { req });
}
