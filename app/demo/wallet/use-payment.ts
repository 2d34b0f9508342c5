'use client';
// One payment on the phone, through its phases: the URI opened and its envelope verified
// (lib/wallet checks the relay's signature and the QR's hash), reviewed, paid with the demo
// wallet's coins, then followed on the relay until it is confirmed or declined.
import { useCallback, useEffect, useState } from 'react';
import { buildPaymentTx, fetchPayment, paymentDisplay, readConnectQr, submitPayment, waitForStatus, type PaymentDisplay, type VerifiedPayment } from '@/lib/wallet';
import { allowHttp, errorText, loadWallet, walletUtxos, type Phase } from './wallet-data';

/** `walletChanged` is called when the payment may have spent the wallet's coins. */
export function usePayment(walletChanged: () => Promise<void>) {
  const [uri, setUri] = useState('');
  const [phase, setPhase] = useState<Phase>({ kind: 'idle' });

  const open = useCallback(async (text: string) => {
    setPhase({ kind: 'loading' });
    try {
      const qr = readConnectQr(text.trim());
      const verified = await fetchPayment(qr, { allowHttp: allowHttp() });
      setPhase({ kind: 'review', verified, view: paymentDisplay(verified.payment) });
    } catch (e) {
      setPhase({ kind: 'error', message: errorText(e) });
    }
  }, []);

  /** A URI that came from elsewhere (a link or the camera): shown in the field, and opened. */
  const openFound = useCallback((text: string) => {
    setUri(text);
    void open(text);
  }, [open]);

  // /demo/wallet?uri=<payment URI> opens that payment directly (a link from the cashier screen).
  useEffect(() => {
    const fromLink = new URLSearchParams(window.location.search).get('uri');
    if (fromLink) openFound(fromLink);
  }, [openFound]);

  const fail = useCallback((message: string) => setPhase({ kind: 'error', message }), []);

  const pay = useCallback(async (verified: VerifiedPayment, view: PaymentDisplay) => {
    setPhase({ kind: 'paying', view });
    try {
      // The wallet as it is now: a payment made since the screen loaded spent some of its coins.
      const w = await loadWallet();
      if (typeof w === 'string') throw new Error(w);
      const tx = buildPaymentTx(verified.payment, { network: w.network, utxos: walletUtxos(w), keys: [w.wif], changeAddress: w.address });
      const opts = { allowHttp: allowHttp() };
      const submitted = await submitPayment(verified.payment, { tx: tx.hex, refund: w.refund_address }, opts);
      setPhase({ kind: 'status', view, status: submitted });
      void walletChanged();
      if (submitted.status !== 'confirmed') {
        await waitForStatus(verified.payment.relay, verified.payment.id, {
          ...opts, deadline: Date.now() + 30 * 60_000, intervalMs: 1000,
          onStatus: (status) => setPhase({ kind: 'status', view, status }),
        });
      }
      void walletChanged();
    } catch (e) {
      setPhase({ kind: 'error', message: errorText(e) });
    }
  }, [walletChanged]);

  const cancel = useCallback(() => setPhase({ kind: 'idle' }), []);
  const payAnother = useCallback(() => {
    setUri('');
    setPhase({ kind: 'idle' });
  }, []);

  return { uri, setUri, phase, open, openFound, fail, pay, cancel, payAnother };
}
