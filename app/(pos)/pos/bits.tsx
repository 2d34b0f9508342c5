// Small presentational pieces shared by the cashier screens.
import { useLocale } from 'next-intl';
import { dogeText } from '@/lib/pos/client';
import s from './pos.module.css';

/** A DOGE amount in the user's language: "Ð 1,234.50", "Ð 1.234,50". */
export function Doge({ k }: { k: bigint }) {
  const locale = useLocale();
  return <span className={s.doge}>{dogeText(k, locale)}</span>;
}

/** A product icon: an image URL, an emoji/short text, or the name's initial. */
export function Icon({ icon, name }: { icon: string; name: string }) {
  if (/^(https:\/\/|\/)/.test(icon)) {
    // eslint-disable-next-line @next/next/no-img-element -- a product's icon (a bundled SVG or the shop's own URL) at a fixed small size
    return <img className={s.pIcon} src={icon} alt="" />;
  }
  return (
    <span className={s.pIcon} aria-hidden="true">
      {icon && icon.length <= 4 ? icon : name.slice(0, 1).toUpperCase()}
    </span>
  );
}

/** The payment-sound switch's bell (struck through when off): drawn, so it looks the same on
 *  every device, including those without an emoji font. */
export function BellIcon({ off }: { off: boolean }) {
  return (
    <svg
      aria-hidden="true"
      focusable="false"
      width="18"
      height="18"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
    >
      <path d="M6 16V11a6 6 0 0 1 12 0v5l2 2H4z" />
      <path d="M10 21h4" />
      {off ? <path d="M3 3l18 18" /> : null}
    </svg>
  );
}
