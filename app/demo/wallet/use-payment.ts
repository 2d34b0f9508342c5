'use client';
// One payment on the phone, through its phases: the URI opened and its envelope verified
// (lib/wallet checks the relay's signature and the QR's hash), reviewed, paid with the demo
// wallet's coins, then followed on the relay until it is confirmed or declined.
import { useCallback, useEffect, useState } from 'react';
import {
  buildPaymentTx,
  fetchPayment,
  paymentDisplay,
  readConnectQr,
  submitPayment,
  waitForStatus,
  type PaymentDisplay,
  type VerifiedPayment,
} from '@/lib/wallet';
import { allowHttp, errorText, loadWallet, walletUtxos, type Phase } from './wallet-data';

/** The phase a pasted, scanned or linked URI leads to: its payment verified and under review, or why not. */
async function verifiedPhase(text: string): Promise<Phase> {
  try {
    const qr = readConnectQr(text.trim());
    const verified = await fetchPayment(qr, { allowHttp: allowHttp() });
    return { kind: 'review', verified, view: paymentDisplay(verified.payment) };
  } catch (e) {
    return { kind: 'error', message: errorText(e) };
  }
}

/**
 * `walletChanged` is called when the payment may have spent the wallet's coins. `linked`: the
 * URI of /demo/wallet?uri=<payment URI> (a link from the cashier screen), opened at once.
 */
export function usePayment(walletChanged: () => Promise<void>, linked = '') {
  const [uri, setUri] = useState(linked);
  const [phase, setPhase] = useState<Phase>(linked ? { kind: 'loading' } : { kind: 'idle' });

  const open = useCallback(async (text: string) => {
    setPhase({ kind: 'loading' });
    setPhase(await verifiedPhase(text));
  }, []);

  /** A URI that came from elsewhere (the camera): shown in the field, and opened. */
  const openFound = useCallback(
    (text: string) => {
      setUri(text);
      void open(text);
    },
    [open],
  );

  useEffect(() => {
    if (!linked) return;
    let shown = true;
    void verifiedPhase(linked).then((p) => shown && setPhase(p));
    return () => {
      shown = false;
    };
  }, [linked]);

  const fail = useCallback((message: string) => setPhase({ kind: 'error', message }), []);

  const pay = useCallback(
    async (verified: VerifiedPayment, view: PaymentDisplay) => {
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
            ...opts,
            deadline: Date.now() + 30 * 60_000,
            intervalMs: 1000,
            onStatus: (status) => setPhase({ kind: 'status', view, status }),
          });
        }
        void walletChanged();
      } catch (e) {
        setPhase({ kind: 'error', message: errorText(e) });
      }
    },
    [walletChanged],
  );

  const cancel = useCallback(() => setPhase({ kind: 'idle' }), []);
  const payAnother = useCallback(() => {
    setUri('');
    setPhase({ kind: 'idle' });
  }, []);

  return { uri, setUri, phase, open, openFound, fail, pay, cancel, payAnother };
}
