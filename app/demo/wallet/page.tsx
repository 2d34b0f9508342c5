import type { Metadata } from 'next';
import { DemoWallet } from './demo-wallet';

export const metadata: Metadata = { title: 'Demo wallet — Counter' };

/** The customer's phone in the demo: scans or takes a pasted URI and pays with the wallet SDK. */
export default function DemoWalletPage() {
  return <DemoWallet />;
}
