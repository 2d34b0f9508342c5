'use client';
import s from '../../pos.module.css';

export function PrintButton() {
  return <button type="button" className={s.primary} onClick={() => window.print()}>Print</button>;
}
