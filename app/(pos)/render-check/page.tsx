import { notFound } from 'next/navigation';
import { runtimeSettings } from '@/lib/config';

export const dynamic = 'force-dynamic';

// A page whose server component fails, for the test of the route groups' error boundaries
// (tests/e2e/error-boundary.spec.ts). Absent (404) unless COUNTER_TEST_RENDER_ERROR=1.
export default async function RenderCheck() {
  if (!runtimeSettings().testRenderError) notFound();
  throw new Error('render check: this page fails on purpose');
}
