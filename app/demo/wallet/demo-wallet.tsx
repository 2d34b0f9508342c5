'use client';
// The demo wallet: a customer's phone. It reads a DogeConnect QR code (camera via
// BarcodeDetector where the browser has it, or a pasted URI), verifies the envelope, shows the
// itemised payment, and pays it with lib/wallet using the devnet-funded demo wallet.
// The parts: the wallet (use-demo-wallet.ts), the payment's phases (use-payment.ts), the
// camera (use-qr-scanner.ts), and one panel each (wallet-panel, scan-panel, payment-panel).
import { PaymentPanel } from './payment-panel';
import { ScanPanel } from './scan-panel';
import { useDemoWallet, useNow } from './use-demo-wallet';
import { usePayment } from './use-payment';
import { useQrScanner } from './use-qr-scanner';
import { WalletPanel } from './wallet-panel';
import { secondsLeft } from './wallet-data';
import css from './wallet.module.css';

/** `linked`: a payment URI to open at once (/demo/wallet?uri=…, from the cashier screen). */
export function DemoWallet({ linked }: { linked: string }) {
  const { wallet, walletError, refresh } = useDemoWallet();
  const now = useNow();
  const payment = usePayment(refresh, linked);
  const { phase } = payment;
  const camera = useQrScanner(payment.openFound, payment.fail);

  const choosing = phase.kind === 'idle' || phase.kind === 'error' || phase.kind === 'loading';

  return (
    <main className={css.phone}>
      <header className={css.row}>
        <h1 style={{ margin: 0 }}>Demo wallet</h1>
        <span className="pill">devnet</span>
      </header>

      <WalletPanel wallet={wallet} error={walletError} />

      {choosing && (
        <ScanPanel
          camera={camera}
          uri={payment.uri}
          setUri={payment.setUri}
          open={payment.open}
          loading={phase.kind === 'loading'}
          error={phase.kind === 'error' ? phase.message : null}
        />
      )}

      {'view' in phase && (
        <PaymentPanel
          phase={phase}
          secondsLeft={secondsLeft(phase.view, now)}
          hasWallet={!!wallet}
          pay={() => {
            if (phase.kind === 'review') void payment.pay(phase.verified, phase.view);
          }}
          cancel={payment.cancel}
          payAnother={payment.payAnother}
        />
      )}
    </main>
  );
}
