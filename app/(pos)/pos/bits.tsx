// Small presentational pieces shared by the cashier screens.
import { useLocale } from 'next-intl';
import { dogeText } from '@/lib/pos/cart';
import s from './pos.module.css';

/** A DOGE amount in the user's language: "Ð 1,234.50", "Ð 1.234,50". */
export function Doge({ k }: { k: bigint }) {
  const locale = useLocale();
  return <span className={s.doge}>{dogeText(k, locale)}</span>;
}

/** A product icon: an image URL, an emoji/short text, or the name's initial. */
export function Icon({ icon, name }: { icon: string; name: string }) {
  if (/^(https:\/\/|\/)/.test(icon)) {
    // eslint-disable-next-line @next/next/no-img-element
    return <img className={s.pIcon} src={icon} alt="" />;
  }
  return <span className={s.pIcon} aria-hidden="true">{icon && icon.length <= 4 ? icon : name.slice(0, 1).toUpperCase()}</span>;
}
