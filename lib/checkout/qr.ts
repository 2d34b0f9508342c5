// The checkout page's QR code, drawn under the till's rule (docs/using-counter.md, "The QR code
// every wallet reads"): error correction M, a quiet zone of 4 modules, and whole modules of at
// least 4 CSS px, so a phone camera reads it from 30 cm and zbar reads a half-size screenshot.
// The same function runs on the server (the page works without JavaScript) and in the browser
// (a live change to the code, such as the rest of an underpaid payment).
import QRCode from 'qrcode';

export const QR_QUIET_ZONE = 4;
export const QR_MIN_MODULE_PX = 4;
/** The width the code aims for, within a 390 px wide phone's page. */
const TARGET_PX = 296;

export interface QrImage {
  /** An `<img>` source: the SVG as a data URI. */
  src: string;
  /** Modules across, quiet zone included. */
  modules: number;
  /** CSS px per module (an integer, so every module has the same size). */
  modulePx: number;
  /** The image's width and height in CSS px. */
  px: number;
}

/** `targetPx`: the width aimed at (the customer's display draws it larger); modules never go below 4 px. */
export function qrImage(uri: string, targetPx = TARGET_PX): QrImage {
  const modules = QRCode.create(uri, { errorCorrectionLevel: 'M' }).modules.size + 2 * QR_QUIET_ZONE;
  const modulePx = Math.max(QR_MIN_MODULE_PX, Math.floor(targetPx / modules));
  let svg = '';
  // toString with a callback runs synchronously for the svg type.
  QRCode.toString(
    uri,
    { type: 'svg', margin: QR_QUIET_ZONE, errorCorrectionLevel: 'M', color: { dark: '#000000', light: '#ffffff' } },
    (err, s) => {
      if (err) throw err;
      svg = s;
    },
  );
  return { src: `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`, modules, modulePx, px: modules * modulePx };
}
