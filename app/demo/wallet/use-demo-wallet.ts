'use client';
// The devnet-funded wallet on the phone: loaded once, and again after each payment so the
// balance follows what was spent.
import { useCallback, useEffect, useState } from 'react';
import useSWR from 'swr';
import { errorText, loadWallet, type DemoWalletJson } from './wallet-data';

async function readWallet(): Promise<DemoWalletJson> {
  const w = await loadWallet().catch((e) => `The demo wallet is unavailable: ${errorText(e)}`);
  if (typeof w === 'string') throw new Error(w);
  return w;
}

export function useDemoWallet() {
  // Read when asked (at mount and by `refresh`), not on focus or reconnect, and not retried:
  // the message says what is wrong.
  const { data, error, mutate } = useSWR('demo-wallet', readWallet, {
    revalidateOnFocus: false,
    revalidateOnReconnect: false,
    shouldRetryOnError: false,
    keepPreviousData: true,
  });
  const refresh = useCallback(async () => {
    await mutate();
  }, [mutate]);
  return { wallet: data ?? null, walletError: error instanceof Error ? error.message : '', refresh };
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
