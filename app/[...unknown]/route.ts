// Every path no other route serves (more specific routes always win over this catch-all).
import { notFoundResponse } from '@/lib/api';

export const dynamic = 'force-dynamic';

export const GET = notFoundResponse;
export const HEAD = notFoundResponse;
export const POST = notFoundResponse;
export const PUT = notFoundResponse;
export const PATCH = notFoundResponse;
export const DELETE = notFoundResponse;
export const OPTIONS = notFoundResponse;
