'use client';
import type { DemoWalletJson } from './wallet-data';
import css from './wallet.module.css';

/** The demo wallet's balance and address, or why it is not there (yet). */
export function WalletPanel({ wallet, error }: { wallet: DemoWalletJson | null; error: string }) {
  return (
    <section className={css.panel} aria-label="Wallet">
      {wallet ? (
        <>
          <div className={css.row}>
            <span className="muted">Balance</span>
            <b data-testid="wallet-balance">Ð {wallet.balance}</b>
          </div>
          <div className={css.mono}>{wallet.address}</div>
        </>
      ) : (
        <p className="muted" role="status">
          {error || 'Loading the demo wallet…'}
        </p>
      )}
    </section>
  );
}
