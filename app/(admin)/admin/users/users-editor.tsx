'use client';
import { useState } from 'react';
import { useTranslations } from 'next-intl';
import type { UserView } from '@/lib/backoffice';
import { useAdminCall } from '../_components/api';
import { roleLabel } from '../_components/labels';
import { PinForm } from './pin-form';
import { ActionButton, SubmitButton } from '@/app/_lib/action-button';
import { useHydrated } from '@/app/_lib/use-hydrated';

const ROLES = ['owner', 'manager', 'cashier'];

export function UsersEditor({ initial, me }: { initial: UserView[]; me: string }) {
  const t = useTranslations('adminUsers');
  const ta = useTranslations('admin');
  const adminCall = useAdminCall();
  // The role selects are controlled: a choice made before hydration would be reset without a
  // change event, so they wait for it (app/_lib/use-hydrated.ts).
  const hydrated = useHydrated();
  const [users, setUsers] = useState(initial);
  const [msg, setMsg] = useState<{ error: boolean; text: string } | null>(null);
  const replace = (u: UserView) => setUsers((us) => us.map((x) => (x.id === u.id ? u : x)));

  // Uncontrolled inputs read at submit: what the user typed counts even if it was typed before
  // the page finished hydrating.
  async function create(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const el = e.currentTarget;
    const form = Object.fromEntries(new FormData(el).entries());
    const r = await adminCall<UserView>('POST', '/api/admin/users', form);
    if (!r.ok) return setMsg({ error: true, text: r.message });
    setUsers((us) => [...us, r.data]);
    el.reset();
    setMsg({ error: false, text: t('created', { email: r.data.email }) });
  }
  async function patch(u: UserView, body: Record<string, unknown>) {
    const r = await adminCall<UserView>('PATCH', `/api/admin/users/${u.id}`, body);
    if (!r.ok) return setMsg({ error: true, text: r.message });
    replace(r.data);
    setMsg({ error: false, text: t('updated', { email: r.data.email }) });
  }

  return (
    <>
      <section className="bo-card">
        <h2>{t('addHeading')}</h2>
        <form className="bo-form-grid" method="post" onSubmit={create}>
          <label className="field">
            <span>{t('email')}</span>
            <input name="email" type="email" required autoComplete="off" />
          </label>
          <label className="field">
            <span>{t('name')}</span>
            <input name="name" maxLength={100} />
          </label>
          <label className="field">
            <span>{t('initialPassword')}</span>
            <input name="password" type="password" required minLength={10} autoComplete="new-password" />
          </label>
          <label className="field">
            <span>{t('role')}</span>
            <select name="role" defaultValue="cashier">
              {ROLES.map((r) => (
                <option key={r} value={r}>
                  {roleLabel(ta, r)}
                </option>
              ))}
            </select>
          </label>
          <div className="bo-form-actions bo-span2">
            <SubmitButton className="btn btn-primary">{t('addUser')}</SubmitButton>
          </div>
        </form>
      </section>
      {msg ? (
        <p role={msg.error ? 'alert' : 'status'} className={msg.error ? 'form-error' : 'bo-ok'}>
          {msg.text}
        </p>
      ) : null}
      <section className="bo-card bo-table-wrap">
        <table className="bo-table">
          <thead>
            <tr>
              <th>{t('user')}</th>
              <th>{t('role')}</th>
              <th className="bo-hide-sm">{t('status')}</th>
              <th></th>
            </tr>
          </thead>
          <tbody>
            {users.map((u) => (
              <tr key={u.id} data-email={u.email}>
                <td>
                  <b>{u.name || u.email}</b>
                  <div className="muted">
                    {u.email}
                    {u.id === me ? ` ${t('you')}` : ''}
                  </div>
                </td>
                <td>
                  <select
                    aria-label={t('roleOf', { email: u.email })}
                    value={u.role}
                    disabled={!hydrated}
                    onChange={(e) => patch(u, { role: e.target.value })}
                  >
                    {ROLES.map((r) => (
                      <option key={r} value={r}>
                        {roleLabel(ta, r)}
                      </option>
                    ))}
                  </select>
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
                    <ActionButton
                      className="btn bo-btn-sm"
                      onClick={() => {
                        const pw = prompt(t('newPassword', { email: u.email }));
                        if (pw) void patch(u, { password: pw });
                      }}
                    >
                      {t('setPassword')}
                    </ActionButton>
                    <PinForm userId={u.id} email={u.email} onDone={setMsg} />
                    {u.id !== me ? (
                      <ActionButton className="btn bo-btn-sm" onClick={() => patch(u, { disabled: !u.disabled })}>
                        {u.disabled ? t('enable') : t('disable')}
                      </ActionButton>
                    ) : null}
                  </span>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
    </>
  );
}
