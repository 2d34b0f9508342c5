// POST /demo/api/mine {"blocks": n}: mine n (1–100) devnet blocks now.
// 404 (any method) unless CHAIN_BACKEND=devnet (never on mainnet): lib/demo/gate and lib/api/demo-route.
import * as z from 'zod';
import { staticContext } from '@/lib/app-context';
import { handle, json, parseJsonOrUndefined, readBodyText, demoRoute, demoNoMethod } from '@/lib/api';
import { InvalidRequestError, notFound } from '@/lib/errors';
import { devnetOf } from '@/lib/demo';

export const dynamic = 'force-dynamic';

const MineRequest = z.object({ blocks: z.number().int().min(1).max(100).default(1) }).strict();

export const POST = demoRoute((req) =>
  handle(async () => {
    const { cfg, chain } = staticContext();
    const d = devnetOf(cfg, chain);
    if (!d) throw notFound('mining on request exists only with CHAIN_BACKEND=devnet');
    const text = await readBodyText(req, 4096);
    const body = MineRequest.safeParse(text.trim() === '' ? {} : parseJsonOrUndefined(text));
    if (!body.success) throw new InvalidRequestError('blocks', body.error.issues[0]?.message ?? 'invalid');
    const hashes = await d.mine(body.data.blocks);
    return json({ blocks: hashes, tip: await d.tip() });
  }),
);
export const GET = demoNoMethod;
export const HEAD = demoNoMethod;
export const PUT = demoNoMethod;
export const PATCH = demoNoMethod;
export const DELETE = demoNoMethod;
export const OPTIONS = demoNoMethod;
