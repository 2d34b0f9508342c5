'use client';
// The left half of the till's payment screen: the QR code the customer scans (app/_lib/payment-code.tsx)
// in a box that shows ✓ once paid and dims when the sale ended unpaid; the notice that only a
// DogeConnect wallet can pay, the choice of QR form, and on devnet the demo wallet. The code opens
// on the dogecoin: form every wallet reads, or on dogeconnect: when only a DogeConnect wallet can
// pay (preferredQrForm, docs/relay.md). Paid in part, it asks for the rest.
import { useState, type Ref } from 'react';
import { useLocale, useTranslations } from 'next-intl';
import { needsConnectWallet, preferredQrForm, type QrForm } from '@/lib/connect/client';
import { QR_MIN_MODULE_PX } from '@/lib/checkout/client';
import { dogeText } from '@/lib/pos/client';
import type { PosPaymentState } from '@/lib/pos';
import { PaymentCode, type PaymentRest } from '@/app/_lib/payment-code';
import type { CreatedPayment } from './created-payment';
import s from './pos.module.css';

export function PaymentQrPanel({
  payment,
  state,
  final,
  rest,
  demoWallet,
  headingRef,
}: {
  payment: CreatedPayment;
  state: PosPaymentState;
  final: boolean;
  rest: PaymentRest | null;
  demoWallet: boolean;
  /** The panel's heading, focused when the screen opens. */
  headingRef: Ref<HTMLHeadingElement>;
}) {
  const t = useTranslations('payment');
  const locale = useLocale();
  const [form, setForm] = useState<QrForm>(() => preferredQrForm(payment));
  const uri = form === 'dogeconnect' ? payment.connect_uri : payment.uri;
  const formButton = (f: QrForm, label: string) => (
    <button type="button" role="radio" aria-checked={form === f} className={form === f ? s.modeOn : s.mode} onClick={() => setForm(f)}>
      {label}
    </button>
  );
  return (
    <section className={s.qrPanel} aria-label={t('code')}>
      <h2 className={s.payHeading} ref={headingRef} tabIndex={-1}>
        {rest ? t('payRest') : state === 'waiting' ? t('scanToPay') : t('heading')}
      </h2>
      <PaymentCode
        uri={uri}
        rest={rest}
        alt={t('qrAlt')}
        restAlt={(due) => t('restQrAlt', { missing: dogeText(due, locale) })}
        copyLabels={{ copy: t('copy'), copied: t('copied') }}
        look={{ qr: s.qr, uriRow: s.uriRow, uri: s.uri, copy: s.secondary }}
        testIds={{ uri: 'payment-uri' }}
        frame={(img, image) => (
          // never smaller than modules of QR_MIN_MODULE_PX, so a phone reads it from 30 cm
          <div
            className={`${s.qrBox} ${final && state !== 'confirmed' ? s.qrDim : ''}`}
            style={{ minWidth: image.modules * QR_MIN_MODULE_PX }}
          >
            {img}
            {state === 'confirmed' ? (
              <div className={s.qrDone} aria-hidden="true">
                ✓
              </div>
            ) : null}
          </div>
        )}
      >
        {needsConnectWallet(payment) ? (
          <p className={s.notice} data-testid="connect-needed">
            {t('connectNeeded')}
          </p>
        ) : null}
        <div className={s.formToggle} role="radiogroup" aria-label={t('qrForm')}>
          {formButton('dogecoin', 'dogecoin: URI')}
          {formButton('dogeconnect', 'DogeConnect')}
        </div>
      </PaymentCode>
      {demoWallet && state === 'waiting' ? (
        <a className={s.link} href={`/demo/wallet?uri=${encodeURIComponent(uri)}`} target="_blank" rel="noreferrer">
          {t('demoWallet')}
        </a>
      ) : null}
    </section>
  );
}
