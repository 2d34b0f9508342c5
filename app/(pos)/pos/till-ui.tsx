'use client';
// Till-wide pieces (docs/using-counter.md#the-till-pos): an accessible confirm dialog
// (a modal <dialog>, never window.confirm), the live-updates banner, and the payment sound
// (Web Audio, no asset) with its on/off switch kept in localStorage.
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslations } from 'next-intl';
import s from './pos.module.css';
import { useStoredChoice } from '@/app/_lib/use-stored-choice';

interface Ask {
  title: string;
  body: string;
  yes: string;
  no: string;
  resolve: (ok: boolean) => void;
}

/** `ask(…)` opens a modal dialog and resolves true on the confirm button, false on the other or Escape. */
export function useConfirm() {
  const t = useTranslations('common');
  const goBack = t('goBack');
  const [q, setQ] = useState<Ask | null>(null);
  const ref = useRef<HTMLDialogElement>(null);
  const ask = useCallback(
    (title: string, body: string, yes: string, no = goBack) => new Promise<boolean>((resolve) => setQ({ title, body, yes, no, resolve })),
    [goBack],
  );
  useEffect(() => {
    const d = ref.current;
    if (q && d && !d.open) d.showModal();
  }, [q]);
  const done = (ok: boolean) => {
    ref.current?.close();
    q?.resolve(ok);
    setQ(null);
  };
  const dialog = q ? (
    <dialog
      ref={ref}
      className={s.dialog}
      aria-labelledby="till-confirm-title"
      aria-describedby="till-confirm-body"
      onCancel={(e) => {
        e.preventDefault();
        done(false);
      }}
    >
      <h2 id="till-confirm-title">{q.title}</h2>
      <p id="till-confirm-body">{q.body}</p>
      <div className={s.dialogActions}>
        <button type="button" className={s.secondary} onClick={() => done(false)} autoFocus>
          {q.no}
        </button>
        <button type="button" className={s.danger} onClick={() => done(true)}>
          {q.yes}
        </button>
      </div>
    </dialog>
  ) : null;
  return { ask, dialog };
}

/** Full width, role="alert", shown while live updates are down (docs/security.md). */
export function LiveBanner({ down }: { down: boolean }) {
  const t = useTranslations('till');
  if (!down) return null;
  return (
    <div className={s.liveBanner} role="alert" data-testid="live-banner">
      {t('liveDown')}
    </div>
  );
}

const SOUND_KEY = 'counter.till.sound';

/** The payment sound switch, on by default, remembered on this device. */
export function useSoundSetting(): [boolean, (on: boolean) => void] {
  const [stored, store] = useStoredChoice(SOUND_KEY);
  const set = useCallback((v: boolean) => store(v ? 'on' : 'off'), [store]);
  return [stored !== 'off', set];
}

/** Two short rising beeps. Browsers may refuse audio before a user gesture: then it stays silent. */
export function playPaidSound(): boolean {
  try {
    const Ctx = window.AudioContext ?? (window as unknown as { webkitAudioContext?: typeof AudioContext }).webkitAudioContext;
    if (!Ctx) return false;
    const ctx = new Ctx();
    const t0 = ctx.currentTime;
    [
      [880, 0],
      [1320, 0.16],
    ].forEach(([f, at]) => {
      const o = ctx.createOscillator();
      const g = ctx.createGain();
      o.type = 'sine';
      o.frequency.value = f;
      g.gain.setValueAtTime(0.0001, t0 + at);
      g.gain.exponentialRampToValueAtTime(0.3, t0 + at + 0.02);
      g.gain.exponentialRampToValueAtTime(0.0001, t0 + at + 0.14);
      o.connect(g).connect(ctx.destination);
      o.start(t0 + at);
      o.stop(t0 + at + 0.15);
    });
    setTimeout(() => ctx.close().catch(() => null), 600);
    (window as unknown as { __tillSounds?: number }).__tillSounds =
      ((window as unknown as { __tillSounds?: number }).__tillSounds ?? 0) + 1;
    return true;
  } catch {
    return false;
  }
}
