'use client';
// The till's "Customer display" button (docs/counter.md#the-customers-display): asks for a
// pairing code and shows it as text and as a QR code of /display?code=…, which the screen that
// faces the customer opens (or it types the code on /display). The code is single use and
// short-lived; "New code" asks for another.
import { useEffect, useRef, useState } from 'react';
import { useTranslations } from 'next-intl';
import { csrfFetch } from '@/app/_lib/csrf-fetch';
import { qrImage, type QrImage } from '@/lib/checkout/client';
import s from './pos.module.css';
import c from './customer-display.module.css';

interface Pairing {
  code: string;
  url: string;
  qr: QrImage;
}

export function CustomerDisplayButton() {
  const t = useTranslations('display');
  const tc = useTranslations('common');
  const [open, setOpen] = useState(false);
  const [pairing, setPairing] = useState<Pairing | null>(null);
  const [error, setError] = useState('');
  const ref = useRef<HTMLDialogElement>(null);

  async function newCode() {
    setError('');
    setPairing(null);
    try {
      const r = await csrfFetch('/api/pos/display/pairing', { method: 'POST', body: '{}' });
      const b = await r.json().catch(() => ({}));
      if (r.status !== 201) return setError(typeof b.message === 'string' ? b.message : tc('requestFailed', { status: r.status }));
      const url = new URL(b.path, window.location.origin).toString();
      setPairing({ code: b.code, url, qr: qrImage(url) });
    } catch {
      setError(tc('networkRetry'));
    }
  }

  useEffect(() => {
    if (open && ref.current && !ref.current.open) ref.current.showModal();
  }, [open]);

  function show() {
    setOpen(true);
    void newCode();
  }
  function close() {
    ref.current?.close();
    setOpen(false);
    setPairing(null);
  }

  return (
    <>
      <button type="button" className={s.ghost} onClick={show}>
        {t('customerDisplay')}
      </button>
      {open ? (
        <dialog
          ref={ref}
          className={s.dialog}
          aria-labelledby="display-pair-title"
          onCancel={(e) => {
            e.preventDefault();
            close();
          }}
        >
          <h2 id="display-pair-title">{t('pairTitle')}</h2>
          <p>{t('pairHelp')}</p>
          {pairing ? (
            <div className={c.pairing}>
              <strong className={c.code} data-testid="pairing-code">
                {pairing.code}
              </strong>
              {/* eslint-disable-next-line @next/next/no-img-element -- a data: URL QR code drawn here: next/image has nothing to fetch or resize */}
              <img
                src={pairing.qr.src}
                width={pairing.qr.px}
                height={pairing.qr.px}
                alt={t('pairingQrAlt')}
                data-uri={pairing.url}
                data-testid="pairing-qr"
                className={c.qr}
              />
              <span>{t('codeExpires', { minutes: 5 })}</span>
            </div>
          ) : error ? (
            <p role="alert">{error}</p>
          ) : (
            <p>{tc('pleaseWait')}</p>
          )}
          <div className={s.dialogActions}>
            <button type="button" className={s.secondary} onClick={() => void newCode()}>
              {t('newCode')}
            </button>
            <button type="button" className={s.primary} onClick={close} autoFocus>
              {t('close')}
            </button>
          </div>
        </dialog>
      ) : null}
    </>
  );
}
