import type { Metadata } from 'next';
import { demoEnabled } from '@/lib/demo';
import { DemoWallet } from './demo-wallet';

// Off devnet the layout answers 404; the title must not name the demo either.
export function generateMetadata(): Metadata {
  return { title: demoEnabled() ? 'Demo wallet — Counter' : 'Not found — Counter' };
}

/** The customer's phone in the demo: scans or takes a pasted URI and pays with the wallet SDK. */
export default async function DemoWalletPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { uri } = await searchParams;
  return <DemoWallet linked={typeof uri === 'string' ? uri : ''} />;
}
