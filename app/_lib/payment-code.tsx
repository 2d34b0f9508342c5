'use client';
// The code a customer scans for a payment, and its URI with Copy: the same block on the till's
// payment screen and on the customer's checkout page. The QR code is drawn under the till's rule
// (lib/checkout/qr.ts: error correction M, a 4-module quiet zone, modules of at least 4 CSS px).
// A payment paid in part asks for the rest (docs/api.md#payments-from-any-wallet): the block
// then shows the plain dogecoin: URI of what is missing (lib/pos/payment-state.ts underpaidRest),
// names it in its alt text, and drops what only concerns the whole payment (the DogeConnect
// notice, the choice of form), which the caller passes as `children`.
import { useMemo, useState, type ReactNode } from 'react';
import { qrImage, type QrImage } from '@/lib/checkout/client';
import { ActionButton } from './action-button';

export interface PaymentRest {
  /** What is still missing, in koinu. */
  due: bigint;
  /** The plain `dogecoin:` URI for it. */
  restUri: string;
}

export interface PaymentCodeProps {
  /** The URI the code shows for the whole payment (its `dogecoin:` or `dogeconnect:` form). */
  uri: string;
  /** Paid in part: the rest to pay, or null. */
  rest: PaymentRest | null;
  /** The image's alt text, for the whole payment and for the rest (given what is missing). */
  alt: string;
  restAlt: (due: bigint) => string;
  copyLabels: { copy: string; copied: string };
  /** The screen's classes: the image, the URI row, the URI, the Copy button. */
  look: { qr: string; uriRow: string; uri: string; copy: string };
  testIds: { qr?: string; uri: string };
  /** The image's width and height as attributes (the checkout page); the till sizes it by CSS. */
  sized?: boolean;
  /** Copy needs JavaScript: the server-rendered checkout page shows it once hydrated. */
  canCopy?: boolean;
  /** A code the server drew already, reused while it is the one shown. */
  drawn?: { uri: string; image: QrImage } | null;
  /** Wraps the image (the till's box with its ✓ once paid), given its module count. */
  frame?: (img: ReactNode, image: QrImage) => ReactNode;
  /** Between the image and the URI: shown for the whole payment only, never for the rest. */
  children?: ReactNode;
}

export function PaymentCode(p: PaymentCodeProps) {
  const shown = p.rest ? p.rest.restUri : p.uri;
  const image = useMemo(() => (p.drawn?.uri === shown ? p.drawn.image : qrImage(shown)), [shown, p.drawn]);
  const img = (
    // eslint-disable-next-line @next/next/no-img-element -- a data: URL QR code drawn here: next/image has nothing to fetch or resize
    <img
      className={p.look.qr}
      src={image.src}
      width={p.sized ? image.px : undefined}
      height={p.sized ? image.px : undefined}
      data-testid={p.testIds.qr}
      data-uri={shown}
      data-modules={image.modules}
      alt={p.rest ? p.restAlt(p.rest.due) : p.alt}
    />
  );
  return (
    <>
      {p.frame ? p.frame(img, image) : img}
      {p.rest ? null : p.children}
      <div className={p.look.uriRow}>
        <code className={p.look.uri} data-testid={p.testIds.uri}>
          {shown}
        </code>
        {p.canCopy === false ? null : <CopyButton text={shown} labels={p.copyLabels} className={p.look.copy} />}
      </div>
    </>
  );
}

function CopyButton({ text, labels, className }: { text: string; labels: { copy: string; copied: string }; className: string }) {
  const [copied, setCopied] = useState(false);
  async function copy() {
    try {
      await navigator.clipboard.writeText(text);
    } catch {
      // plain-http LAN tills have no Clipboard API: the old way
      const ta = document.createElement('textarea');
      ta.value = text;
      document.body.appendChild(ta);
      ta.select();
      document.execCommand('copy');
      ta.remove();
    }
    setCopied(true);
    setTimeout(() => setCopied(false), 1500);
  }
  return (
    // The checkout page draws this on the server: it waits for hydration, or a tap would copy nothing.
    <ActionButton className={className} onClick={copy}>
      {copied ? labels.copied : labels.copy}
    </ActionButton>
  );
}
