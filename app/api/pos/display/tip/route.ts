// /api/pos/display/tip (session + terminal cookie): the till's wait for the customer's tip on its
// display, opened (POST), read (GET) and ended (DELETE) (docs/counter.md#tips-on-the-customers-display).
import { handle } from '@/lib/api/handle';
import { appContext } from '@/lib/app-context';
import { tillTip } from '@/lib/api/display-tip-routes';

export const dynamic = 'force-dynamic';

const route = (req: Request) => handle(async () => tillTip((await appContext()).db, req));
export const GET = route;
export const POST = route;
export const DELETE = route;
