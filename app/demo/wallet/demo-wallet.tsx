'use client';
// The demo wallet: a customer's phone. It reads a DogeConnect QR code (camera via
// BarcodeDetector where the browser has it, or a pasted URI), verifies the envelope, shows the
// itemised payment, and pays it with lib/wallet using the devnet-funded demo wallet.
import { useCallback, useEffect, useRef, useState } from 'react';
import {
  buildPaymentTx, fetchPayment, paymentDisplay, readConnectQr, submitPayment, waitForStatus,
  type PaymentDisplay, type VerifiedPayment, type WalletUtxo,
} from '@/lib/wallet';
import type { PaymentStatus } from '@/lib/connect';
import { parseKoinu } from '@/lib/money';
import css from './wallet.module.css';

interface DemoWalletJson {
  network: 'testnet' | 'regtest';
  address: string;
  /** Sent as the `refund` address: not the wallet's own, whose coins pay the refund back (docs/security.md). */
  refund_address: string;
  wif: string;
  balance: string;
  utxos: { txid: string; vout: number; amount: string; script: string; address: string; confirmations: number }[];
}

type Phase =
  | { kind: 'idle' }
  | { kind: 'loading' }
  | { kind: 'review'; verified: VerifiedPayment; view: PaymentDisplay }
  | { kind: 'paying'; view: PaymentDisplay }
  | { kind: 'status'; view: PaymentDisplay; status: PaymentStatus }
  | { kind: 'error'; message: string };

// Local demo only: the devnet server speaks plain http on localhost.
const allowHttp = () => typeof window !== 'undefined' && window.location.protocol === 'http:';

async function loadWallet(): Promise<DemoWalletJson | string> {
  const r = await fetch('/demo/api/wallet', { cache: 'no-store' });
  if (r.status === 404) return 'The demo wallet runs only on the devnet chain (npm run demo).';
  if (!r.ok) return `The demo wallet is unavailable (HTTP ${r.status}).`;
  return (await r.json()) as DemoWalletJson;
}

function errorText(e: unknown): string {
  const err = e as { name?: string; code?: string; message?: string };
  return err?.code ? `${err.message} (${err.code})` : String(err?.message ?? e);
}

function statusText(s: PaymentStatus): string {
  switch (s.status) {
    case 'unpaid': return 'Waiting…';
    case 'accepted': return `Accepted — ${s.confirmed}/${s.required} confirmations`;
    case 'confirmed': return 'Confirmed ✓';
    case 'declined': return `Declined: ${s.reason}`;
  }
}

export function DemoWallet() {
  const [wallet, setWallet] = useState<DemoWalletJson | null>(null);
  const [walletError, setWalletError] = useState('');
  const [uri, setUri] = useState('');
  const [phase, setPhase] = useState<Phase>({ kind: 'idle' });
  const [scanning, setScanning] = useState(false);
  const [canScan, setCanScan] = useState(false);
  const [now, setNow] = useState(() => Date.now());
  const videoRef = useRef<HTMLVideoElement>(null);
  const streamRef = useRef<MediaStream | null>(null);

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
    setCanScan(typeof window !== 'undefined' && 'BarcodeDetector' in window && !!navigator.mediaDevices?.getUserMedia);
    const t = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(t);
  }, [refresh]);

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

  // /demo/wallet?uri=<payment URI> opens that payment directly (a link from the cashier screen).
  useEffect(() => {
    const fromLink = new URLSearchParams(window.location.search).get('uri');
    if (fromLink) {
      setUri(fromLink);
      void open(fromLink);
    }
  }, [open]);

  const stopScan = useCallback(() => {
    streamRef.current?.getTracks().forEach((t) => t.stop());
    streamRef.current = null;
    setScanning(false);
  }, []);

  const scan = useCallback(async () => {
    type Detector = { detect(v: HTMLVideoElement): Promise<{ rawValue: string }[]> };
    const Ctor = (window as unknown as { BarcodeDetector: new (o: { formats: string[] }) => Detector }).BarcodeDetector;
    try {
      const stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: 'environment' } });
      streamRef.current = stream;
      setScanning(true);
      const video = videoRef.current!;
      video.srcObject = stream;
      await video.play();
      const detector = new Ctor({ formats: ['qr_code'] });
      const tick = async () => {
        if (!streamRef.current) return;
        const codes = await detector.detect(video).catch(() => []);
        const hit = codes.find((c) => /^doge(coin|connect):/i.test(c.rawValue));
        if (hit) {
          stopScan();
          setUri(hit.rawValue);
          void open(hit.rawValue);
        } else setTimeout(tick, 250);
      };
      void tick();
    } catch (e) {
      stopScan();
      setPhase({ kind: 'error', message: `Camera unavailable: ${errorText(e)}. Paste the payment URI instead.` });
    }
  }, [open, stopScan]);

  useEffect(() => stopScan, [stopScan]);

  const pay = useCallback(async (verified: VerifiedPayment, view: PaymentDisplay) => {
    setPhase({ kind: 'paying', view });
    try {
      const w = await loadWallet();
      if (typeof w === 'string') throw new Error(w);
      const utxos: WalletUtxo[] = w.utxos.map((u) => ({ txid: u.txid, vout: u.vout, amount: parseKoinu(u.amount), script: u.script }));
      const tx = buildPaymentTx(verified.payment, { network: w.network, utxos, keys: [w.wif], changeAddress: w.address });
      const opts = { allowHttp: allowHttp() };
      const submitted = await submitPayment(verified.payment, { tx: tx.hex, refund: w.refund_address }, opts);
      setPhase({ kind: 'status', view, status: submitted });
      void refresh();
      if (submitted.status !== 'confirmed') {
        await waitForStatus(verified.payment.relay, verified.payment.id, {
          ...opts, deadline: Date.now() + 30 * 60_000, intervalMs: 1000,
          onStatus: (status) => setPhase({ kind: 'status', view, status }),
        });
      }
      void refresh();
    } catch (e) {
      setPhase({ kind: 'error', message: errorText(e) });
    }
  }, [refresh]);

  const view = 'view' in phase ? phase.view : null;
  const secondsLeft = view ? Math.max(0, Math.floor((view.expiresAt - now) / 1000)) : 0;

  return (
    <main className={css.phone}>
      <header className={css.row}>
        <h1 style={{ margin: 0 }}>Demo wallet</h1>
        <span className="pill">devnet</span>
      </header>

      <section className={css.panel} aria-label="Wallet">
        {wallet ? (
          <>
            <div className={css.row}><span className="muted">Balance</span><b data-testid="wallet-balance">Ð {wallet.balance}</b></div>
            <div className={css.mono}>{wallet.address}</div>
          </>
        ) : (
          <p className="muted" role="status">{walletError || 'Loading the demo wallet…'}</p>
        )}
      </section>

      {(phase.kind === 'idle' || phase.kind === 'error' || phase.kind === 'loading') && (
        <section className={css.panel} aria-label="Scan">
          {canScan && (
            <>
              <video ref={videoRef} className={css.video} muted playsInline hidden={!scanning} />
              <button className="btn" type="button" onClick={() => (scanning ? stopScan() : void scan())}>
                {scanning ? 'Stop the camera' : 'Scan the QR code'}
              </button>
            </>
          )}
          <label htmlFor="uri">Payment URI</label>
          <textarea id="uri" className={css.uri} value={uri} onChange={(e) => setUri(e.target.value)}
            placeholder="dogeconnect:… or dogecoin:…?dc=…&h=…" spellCheck={false} autoCapitalize="off" />
          <button className="btn btn-primary" type="button" disabled={!uri.trim() || phase.kind === 'loading'} onClick={() => void open(uri)}>
            {phase.kind === 'loading' ? 'Checking…' : 'Open payment'}
          </button>
          {phase.kind === 'error' && <p className={`${css.status} ${css.bad}`} role="alert" data-testid="wallet-error">{phase.message}</p>}
        </section>
      )}

      {view && (
        <section className={css.panel} aria-label="Payment">
          <div className={css.line}>
            {/* eslint-disable-next-line @next/next/no-img-element */}
            <img className={css.icon} src={view.vendor.icon} alt="" />
            <div className={css.grow}>
              <b>{view.vendor.name}</b>
              <div className="muted">Order {view.orderReference !== '—' ? view.orderReference : view.orderId}</div>
            </div>
          </div>
          {view.signsData && (
            <div className={css.signing} role="note">
              This payment also signs data and writes it to the blockchain.
              {view.outputs.filter((o) => o.type === 'data').map((o, i) => <div key={i} className={css.mono}>data {o.data}</div>)}
            </div>
          )}
          <ul className={css.lines}>
            {view.lines.map((l) => (
              <li key={l.id} className={`${css.line} ${l.prominent ? css.signing : ''}`}>
                {/* eslint-disable-next-line @next/next/no-img-element */}
                <img className={css.icon} src={l.icon} alt="" />
                <div className={css.grow}>
                  <div>{l.prominent ? `Signing: ${l.name}` : l.name}</div>
                  {l.description && <div className="muted">{l.description}</div>}
                </div>
                {!l.prominent && <span>{l.count} × {l.unit} = <b>{l.total}</b></span>}
              </li>
            ))}
          </ul>
          {view.taxes && <div className={css.row}><span className="muted">Taxes</span><span>{view.taxes}</span></div>}
          {view.fees && <div className={css.row}><span className="muted">Fees</span><span>{view.fees}</span></div>}
          <div className={css.row}><span>Total</span><span className={css.total} data-testid="payment-total">Ð {view.total}</span></div>
          {view.note && <p className="muted">{view.note}</p>}

          {phase.kind === 'review' && (
            <>
              <div className="muted">Expires in {Math.floor(secondsLeft / 60)}:{String(secondsLeft % 60).padStart(2, '0')}</div>
              <div className={css.buttons}>
                <button className="btn" type="button" onClick={() => setPhase({ kind: 'idle' })}>Cancel</button>
                <button className="btn btn-primary" type="button" disabled={secondsLeft === 0 || !wallet}
                  onClick={() => void pay(phase.verified, phase.view)}>
                  Pay Ð {view.total}
                </button>
              </div>
            </>
          )}
          {phase.kind === 'paying' && <p className={css.status} role="status">Signing and sending…</p>}
          {phase.kind === 'status' && (
            <>
              <p className={`${css.status} ${phase.status.status === 'confirmed' ? css.ok : phase.status.status === 'declined' ? css.bad : ''}`}
                role="status" data-testid="payment-status" data-status={phase.status.status}>
                {statusText(phase.status)}
              </p>
              {'txid' in phase.status && phase.status.txid && <div className={css.mono}>tx {phase.status.txid}</div>}
              <button className="btn" type="button" onClick={() => { setUri(''); setPhase({ kind: 'idle' }); }}>Pay another</button>
            </>
          )}
        </section>
      )}
    </main>
  );
}
