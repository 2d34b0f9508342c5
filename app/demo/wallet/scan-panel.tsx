'use client';
import type { RefObject } from 'react';
import css from './wallet.module.css';

export interface ScanPanelProps {
  /** The camera: only where the browser can read QR codes (use-qr-scanner.ts). */
  camera: {
    canScan: boolean;
    scanning: boolean;
    videoRef: RefObject<HTMLVideoElement | null>;
    scan: () => Promise<void>;
    stopScan: () => void;
  };
  uri: string;
  setUri: (uri: string) => void;
  open: (uri: string) => Promise<void>;
  loading: boolean;
  error: string | null;
}

/** How a payment reaches the phone: the camera, or a pasted URI. */
export function ScanPanel({ camera, uri, setUri, open, loading, error }: ScanPanelProps) {
  const { canScan, scanning, videoRef, scan, stopScan } = camera;
  return (
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
      <textarea
        id="uri"
        className={css.uri}
        value={uri}
        onChange={(e) => setUri(e.target.value)}
        placeholder="dogeconnect:… or dogecoin:…?dc=…&h=…"
        spellCheck={false}
        autoCapitalize="off"
      />
      <button className="btn btn-primary" type="button" disabled={!uri.trim() || loading} onClick={() => void open(uri)}>
        {loading ? 'Checking…' : 'Open payment'}
      </button>
      {error !== null && (
        <p className={`${css.status} ${css.bad}`} role="alert" data-testid="wallet-error">
          {error}
        </p>
      )}
    </section>
  );
}
