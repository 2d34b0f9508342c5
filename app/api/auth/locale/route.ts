import { appContext } from '@/lib/app-context';
import { handle } from '@/lib/api/handle';
import { setLocale } from '@/lib/api/locale-route';

export const dynamic = 'force-dynamic';

export function POST(req: Request) {
  return handle(async () => setLocale((await appContext()).db, req), { req });
}
