// /api/pos/display/tip (session + terminal cookie): the till's wait for the customer's tip on its
// display, opened (POST), read (GET) and ended (DELETE) (docs/counter.md#tips-on-the-customers-display).
import { handle, tillTip } from '@/lib/api';
import { appContext } from '@/lib/app-context';

export const dynamic = 'force-dynamic';

const route = (req: Request) => handle(async () => tillTip((await appContext()).db, req));
export const GET = route;
export const POST = route;
export const DELETE = route;
