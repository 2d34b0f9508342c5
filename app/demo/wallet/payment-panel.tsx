'use client';
import type { PaymentDisplay } from '@/lib/wallet';
import type { PaymentStatus } from '@/lib/connect';
import { countdownText, statusText, type Phase } from './wallet-data';
import css from './wallet.module.css';

/** What the customer is asked to pay: the vendor, the lines, any data the tx signs, the total. */
function PaymentSummary({ view }: { view: PaymentDisplay }) {
  return (
    <>
      <div className={css.line}>
        {/* eslint-disable-next-line @next/next/no-img-element -- the envelope's icons, from any origin, shown as a wallet shows them */}
        <img className={css.icon} src={view.vendor.icon} alt="" />
        <div className={css.grow}>
          <b>{view.vendor.name}</b>
          <div className="muted">Order {view.orderReference !== '—' ? view.orderReference : view.orderId}</div>
        </div>
      </div>
      {view.signsData && (
        <div className={css.signing} role="note">
          This payment also signs data and writes it to the blockchain.
          {view.outputs
            .filter((o) => o.type === 'data')
            .map((o, i) => (
              <div key={i} className={css.mono}>
                data {o.data}
              </div>
            ))}
        </div>
      )}
      <ul className={css.lines}>
        {view.lines.map((l) => (
          <li key={l.id} className={`${css.line} ${l.prominent ? css.signing : ''}`}>
            {/* eslint-disable-next-line @next/next/no-img-element -- the envelope's icons, from any origin, shown as a wallet shows them */}
            <img className={css.icon} src={l.icon} alt="" />
            <div className={css.grow}>
              <div>{l.prominent ? `Signing: ${l.name}` : l.name}</div>
              {l.description && <div className="muted">{l.description}</div>}
            </div>
            {!l.prominent && (
              <span>
                {l.count} × {l.unit} = <b>{l.total}</b>
              </span>
            )}
          </li>
        ))}
      </ul>
      {view.taxes && (
        <div className={css.row}>
          <span className="muted">Taxes</span>
          <span>{view.taxes}</span>
        </div>
      )}
      {view.fees && (
        <div className={css.row}>
          <span className="muted">Fees</span>
          <span>{view.fees}</span>
        </div>
      )}
      <div className={css.row}>
        <span>Total</span>
        <span className={css.total} data-testid="payment-total">
          Ð {view.total}
        </span>
      </div>
      {view.note && <p className="muted">{view.note}</p>}
    </>
  );
}

/** The relay's answer for the payment, and a way back to the start. */
function PaymentOutcome({ status, payAnother }: { status: PaymentStatus; payAnother: () => void }) {
  const tone = status.status === 'confirmed' ? css.ok : status.status === 'declined' ? css.bad : '';
  return (
    <>
      <p className={`${css.status} ${tone}`} role="status" data-testid="payment-status" data-status={status.status}>
        {statusText(status)}
      </p>
      {'txid' in status && status.txid && <div className={css.mono}>tx {status.txid}</div>}
      <button className="btn" type="button" onClick={payAnother}>
        Pay another
      </button>
    </>
  );
}

export interface PaymentPanelProps {
  phase: Extract<Phase, { view: PaymentDisplay }>;
  /** Seconds until the payment expires; paying stops at 0. */
  secondsLeft: number;
  hasWallet: boolean;
  pay: () => void;
  cancel: () => void;
  payAnother: () => void;
}

/** The payment being reviewed, paid or followed. */
export function PaymentPanel({ phase, secondsLeft, hasWallet, pay, cancel, payAnother }: PaymentPanelProps) {
  const { view } = phase;
  return (
    <section className={css.panel} aria-label="Payment">
      <PaymentSummary view={view} />
      {phase.kind === 'review' && (
        <>
          <div className="muted">Expires in {countdownText(secondsLeft)}</div>
          <div className={css.buttons}>
            <button className="btn" type="button" onClick={cancel}>
              Cancel
            </button>
            <button className="btn btn-primary" type="button" disabled={secondsLeft === 0 || !hasWallet} onClick={pay}>
              Pay Ð {view.total}
            </button>
          </div>
        </>
      )}
      {phase.kind === 'paying' && (
        <p className={css.status} role="status">
          Signing and sending…
        </p>
      )}
      {phase.kind === 'status' && <PaymentOutcome status={phase.status} payAnother={payAnother} />}
    </section>
  );
}
