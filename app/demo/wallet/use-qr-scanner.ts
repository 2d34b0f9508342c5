'use client';
// The camera reading a DogeConnect QR code, where the browser has BarcodeDetector (Chromium on
// Android, not Firefox or Safari): elsewhere the customer pastes the URI instead.
import { useCallback, useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { errorText } from './wallet-data';

type Detector = { detect(v: HTMLVideoElement): Promise<{ rawValue: string }[]> };

/** A payment URI in either form a wallet reads (docs/relay.md); other QR codes are passed over. */
const isPaymentUri = (text: string) => /^doge(coin|connect):/i.test(text);

// Known only in the browser: false on the server and while hydrating, so the server's HTML matches.
const cameraCanScan = () => 'BarcodeDetector' in window && !!navigator.mediaDevices?.getUserMedia;
const noChanges = () => () => {};

/**
 * `found` gets the first payment URI seen (the camera stops first); `failed` a message when the
 * camera cannot start. The camera stops with the component.
 */
export function useQrScanner(found: (uri: string) => void, failed: (message: string) => void) {
  const [scanning, setScanning] = useState(false);
  const canScan = useSyncExternalStore(noChanges, cameraCanScan, () => false);
  const videoRef = useRef<HTMLVideoElement>(null);
  const streamRef = useRef<MediaStream | null>(null);

  const stopScan = useCallback(() => {
    streamRef.current?.getTracks().forEach((t) => t.stop());
    streamRef.current = null;
    setScanning(false);
  }, []);

  const scan = useCallback(async () => {
    const Ctor = (window as unknown as { BarcodeDetector: new (o: { formats: string[] }) => Detector }).BarcodeDetector;
    try {
      const stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: 'environment' } });
      streamRef.current = stream;
      setScanning(true);
      const video = videoRef.current!;
      video.srcObject = stream;
      await video.play();
      const detector = new Ctor({ formats: ['qr_code'] });
      // Polls the video until a payment URI shows up or the camera is stopped.
      const tick = async () => {
        if (!streamRef.current) return;
        const codes = await detector.detect(video).catch(() => []);
        const hit = codes.find((c) => isPaymentUri(c.rawValue));
        if (hit) {
          stopScan();
          found(hit.rawValue);
        } else setTimeout(tick, 250);
      };
      void tick();
    } catch (e) {
      stopScan();
      failed(`Camera unavailable: ${errorText(e)}. Paste the payment URI instead.`);
    }
  }, [found, failed, stopScan]);

  useEffect(() => stopScan, [stopScan]);

  return { canScan, scanning, videoRef, scan, stopScan };
}
