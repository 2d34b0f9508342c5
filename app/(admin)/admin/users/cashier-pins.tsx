'use client';
// What a manager sees on Users (docs/counter.md#staff-pins): the cashiers and a Set PIN form for
// each, nothing else. The page hands over cashiers only; roles, passwords, enabling and adding
// users stay with the owner, and the API refuses them to a manager whatever this page shows.
import { useState } from 'react';
import { useTranslations } from 'next-intl';
import type { UserView } from '@/lib/backoffice';
import { PinForm } from './pin-form';

export function CashierPins({ cashiers }: { cashiers: UserView[] }) {
  const t = useTranslations('adminUsers');
  const [msg, setMsg] = useState<{ error: boolean; text: string } | null>(null);
  return (
    <>
      {msg ? (
        <p role={msg.error ? 'alert' : 'status'} className={msg.error ? 'form-error' : 'bo-ok'}>
          {msg.text}
        </p>
      ) : null}
      <section className="bo-card bo-table-wrap">
        {cashiers.length ? (
          <table className="bo-table">
            <thead>
              <tr>
                <th>{t('user')}</th>
                <th className="bo-hide-sm">{t('status')}</th>
                <th></th>
              </tr>
            </thead>
            <tbody>
              {cashiers.map((u) => (
                <tr key={u.id} data-email={u.email}>
                  <td>
                    <b>{u.name || u.email}</b>
                    <div className="muted">{u.email}</div>
                  </td>
                  <td className="bo-hide-sm">
                    {u.disabled ? (
                      <span className="bo-badge bo-badge-declined">{t('disabled')}</span>
                    ) : (
                      <span className="bo-badge bo-badge-confirmed">{t('active')}</span>
                    )}
                  </td>
                  <td className="num">
                    <span className="bo-row bo-end">
                      <PinForm userId={u.id} email={u.email} onDone={setMsg} />
                    </span>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : (
          <p className="muted">{t('noCashiers')}</p>
        )}
      </section>
    </>
  );
}
