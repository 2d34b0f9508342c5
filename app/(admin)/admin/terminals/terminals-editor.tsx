'use client';
// The terminals table (docs/counter.md): Rename in place; Unpair displays and Revoke, each confirmed in a modal
// dialog first; the outcome is said in a status line.
import { useEffect, useRef, useState } from 'react';
import { useLocale, useTranslations } from 'next-intl';
import { useAdminCall } from '../_components/api';
import { RenameTerminal } from './rename-terminal';
import { ActionButton } from '@/app/_lib/action-button';

interface TerminalView {
  id: string;
  name: string;
  created_at: string;
  last_seen_at: string | null;
  revoked: boolean;
}
type Pending = { kind: 'unpair' | 'revoke'; t: TerminalView };

export function TerminalsEditor({ initial }: { initial: TerminalView[] }) {
  const t = useTranslations('adminTerminals');
  const locale = useLocale();
  const call = useAdminCall();
  const [terminals, setTerminals] = useState(initial);
  const [msg, setMsg] = useState<{ text: string; error: boolean } | null>(null);
  const [pending, setPending] = useState<Pending | null>(null);
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    if (pending && dialog.current && !dialog.current.open) dialog.current.showModal();
  }, [pending]);

  async function confirm() {
    const p = pending;
    dialog.current?.close();
    setPending(null);
    if (!p) return;
    const id = encodeURIComponent(p.t.id);
    if (p.kind === 'unpair') {
      const r = await call<{ unpaired: number }>('DELETE', `/api/admin/terminals/${id}/display`);
      setMsg(r.ok ? { text: t('unpaired', { count: r.data.unpaired }), error: false } : { text: r.message, error: true });
    } else {
      const r = await call('DELETE', `/api/admin/terminals/${id}`);
      if (r.ok) setTerminals((ts) => ts.map((x) => (x.id === p.t.id ? { ...x, revoked: true } : x)));
      setMsg(r.ok ? { text: t('revokedOk', { name: p.t.name }), error: false } : { text: r.message, error: true });
    }
  }

  const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString(locale) : t('never'));
  return (
    <>
      {msg ? (
        <p role={msg.error ? 'alert' : 'status'} className={msg.error ? 'form-error' : 'bo-ok'}>
          {msg.text}
        </p>
      ) : null}
      <section className="bo-card bo-table-wrap">
        {terminals.length === 0 ? (
          <p className="muted">{t('none')}</p>
        ) : (
          <table className="bo-table">
            <thead>
              <tr>
                <th>{t('name')}</th>
                <th className="bo-hide-sm">{t('lastSeen')}</th>
                <th>{t('status')}</th>
                <th></th>
              </tr>
            </thead>
            <tbody>
              {terminals.map((x) => (
                <tr key={x.id}>
                  <td>
                    <b>{x.name}</b>
                  </td>
                  <td className="bo-hide-sm">{when(x.last_seen_at)}</td>
                  <td>
                    {x.revoked ? (
                      <span className="bo-badge bo-badge-declined">{t('revoked')}</span>
                    ) : (
                      <span className="bo-badge bo-badge-confirmed">{t('active')}</span>
                    )}
                  </td>
                  <td className="num">
                    {x.revoked ? null : (
                      <span className="bo-row bo-end">
                        <RenameTerminal
                          terminal={x}
                          onDone={(r) => {
                            if (r.ok) setTerminals((ts) => ts.map((y) => (y.id === r.data.id ? r.data : y)));
                            setMsg(r.ok ? { text: t('renamed', { name: r.data.name }), error: false } : { text: r.message, error: true });
                          }}
                        />
                        <ActionButton className="btn bo-btn-sm" onClick={() => setPending({ kind: 'unpair', t: x })}>
                          {t('unpair')}
                        </ActionButton>
                        <ActionButton className="btn bo-btn-sm" onClick={() => setPending({ kind: 'revoke', t: x })}>
                          {t('revoke')}
                        </ActionButton>
                      </span>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
      {pending ? (
        <dialog
          ref={dialog}
          className="bo-card"
          aria-labelledby="terminal-confirm-title"
          aria-describedby="terminal-confirm-body"
          onCancel={(e) => {
            e.preventDefault();
            dialog.current?.close();
            setPending(null);
          }}
        >
          <h2 id="terminal-confirm-title">
            {pending.kind === 'unpair' ? t('unpairTitle', { name: pending.t.name }) : t('revokeTitle', { name: pending.t.name })}
          </h2>
          <p id="terminal-confirm-body">{pending.kind === 'unpair' ? t('unpairBody') : t('revokeBody')}</p>
          <div className="bo-row bo-end">
            <ActionButton
              className="btn"
              autoFocus
              onClick={() => {
                dialog.current?.close();
                setPending(null);
              }}
            >
              {t('cancel')}
            </ActionButton>
            <ActionButton className="btn btn-primary" onClick={() => void confirm()}>
              {pending.kind === 'unpair' ? t('unpair') : t('revoke')}
            </ActionButton>
          </div>
        </dialog>
      ) : null}
    </>
  );
}
