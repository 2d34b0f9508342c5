'use client';
// The devnet-funded wallet on the phone: loaded once, and again after each payment so the
// balance follows what was spent.
import { useCallback, useEffect, useState } from 'react';
import { errorText, loadWallet, type DemoWalletJson } from './wallet-data';

export function useDemoWallet() {
  const [wallet, setWallet] = useState<DemoWalletJson | null>(null);
  const [walletError, setWalletError] = useState('');

  const refresh = useCallback(async () => {
    const w = await loadWallet().catch((e) => `The demo wallet is unavailable: ${errorText(e)}`);
    if (typeof w === 'string') setWalletError(w);
    else {
      setWallet(w);
      setWalletError('');
    }
  }, []);

  useEffect(() => {
    void refresh();
  }, [refresh]);

  return { wallet, walletError, refresh };
}

/** The time now, ticking each second (the review's countdown). */
export function useNow(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(t);
  }, []);
  return now;
}
