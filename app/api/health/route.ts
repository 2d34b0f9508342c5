import { health } from '@/lib/api';

export const dynamic = 'force-dynamic';

export function GET(req: Request) {
  return health(req);
}
