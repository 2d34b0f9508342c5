// GET /getLastBlockInfo: node text API (docs/node.md#node-text-api); formats and rules live in lib/node-api.
import { appContext } from '@/lib/app-context';
import { serveNodeEndpoint } from '@/lib/node-api';

export const dynamic = 'force-dynamic';

export function GET(req: Request) {
  return serveNodeEndpoint('getLastBlockInfo', appContext, req);
}
