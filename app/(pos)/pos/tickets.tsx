'use client';
// Open tickets on the sale screen (docs/counter.md#open-tickets): **Save sale** (a new ticket asks
// for its **Ticket name**; a ticket picked up is saved in place) and **Open tickets**, a dialog
// listing the store's tickets, oldest first, each with Pick up and Delete. The state lives in
// useTickets (use-tickets.ts); this file draws.
import { useEffect, useRef, useState } from 'react';
import { useTranslations } from 'next-intl';
import { parseFiatMinor, parseKoinu } from '@/lib/money';
import { DOGE_CURRENCY } from '@/lib/pos/client';
import type { Tickets, TicketSummary } from './use-tickets';
import { Money } from './pricing';
import s from './pos.module.css';
import k from './tickets.module.css';

/** A ticket's total (a decimal string in the pricing currency) in minor units, or null if it is not one. */
function totalMinor(total: string, currency: string): bigint | null {
  try {
    return currency === DOGE_CURRENCY ? parseKoinu(total) : parseFiatMinor(total, currency);
  } catch {
    return null;
  }
}

/** A modal <dialog> opened on mount, closed through onClose (Escape included). */
function useModal(onClose: () => void) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const d = ref.current;
    if (d && !d.open) d.showModal();
  }, []);
  const onCancel = (e: React.SyntheticEvent) => {
    e.preventDefault();
    onClose();
  };
  return { ref, onCancel };
}

export function TicketBar({
  tickets,
  cartEmpty,
  disabled,
  confirmReplace,
}: {
  tickets: Tickets;
  cartEmpty: boolean;
  disabled: boolean;
  /** Asks before a picked-up ticket replaces a cart that is not saved; true to go on. */
  confirmReplace: () => Promise<boolean>;
}) {
  const t = useTranslations('till');
  const [dialog, setDialog] = useState<'save' | 'open' | null>(null);
  const { held } = tickets;

  async function onSave() {
    if (held) await tickets.save();
    else setDialog('save');
  }

  return (
    <div className={k.ticketBar}>
      {held ? (
        <p className={k.held} data-testid="held-ticket">
          {t('ticketHeld', { name: held.name })}
        </p>
      ) : null}
      {tickets.error ? (
        <p className={s.notice} role="alert">
          {tickets.error}
        </p>
      ) : null}
      {tickets.notice ? (
        <p className={k.notice} role="status">
          {tickets.notice}
        </p>
      ) : null}
      <div className={k.ticketButtons}>
        <button type="button" className={s.secondary} disabled={disabled || cartEmpty || tickets.busy} onClick={() => void onSave()}>
          {t('saveSale')}
        </button>
        <button type="button" className={s.secondary} disabled={disabled} onClick={() => setDialog('open')}>
          {t('openTickets')}
        </button>
      </div>
      {dialog === 'save' ? <SaveTicketDialog tickets={tickets} onClose={() => setDialog(null)} /> : null}
      {dialog === 'open' ? (
        <OpenTicketsDialog
          tickets={tickets}
          onClose={() => setDialog(null)}
          onPickUp={async (ticket) => {
            if (!cartEmpty && !held && !(await confirmReplace())) return;
            if (tickets.pickUp(ticket)) setDialog(null);
          }}
        />
      ) : null}
    </div>
  );
}

function SaveTicketDialog({ tickets, onClose }: { tickets: Tickets; onClose: () => void }) {
  const t = useTranslations('till');
  const { ref, onCancel } = useModal(onClose);
  const [name, setName] = useState('');
  return (
    <dialog ref={ref} className={s.dialog} aria-labelledby="save-ticket-title" onCancel={onCancel}>
      <h2 id="save-ticket-title">{t('saveSale')}</h2>
      <form
        method="dialog"
        onSubmit={async (e) => {
          e.preventDefault();
          if (name.trim() && (await tickets.save(name.trim()))) onClose();
        }}
      >
        <label className={k.field}>
          {t('ticketName')}
          <input value={name} onChange={(e) => setName(e.target.value)} maxLength={64} required autoFocus autoComplete="off" />
        </label>
        {tickets.error ? (
          <p className={s.notice} role="alert">
            {tickets.error}
          </p>
        ) : null}
        <div className={s.dialogActions}>
          <button type="button" className={s.secondary} onClick={onClose}>
            {t('optionsCancel')}
          </button>
          <button type="submit" className={s.primary} disabled={!name.trim() || tickets.busy}>
            {t('saveTicket')}
          </button>
        </div>
      </form>
    </dialog>
  );
}

function OpenTicketsDialog({
  tickets,
  onClose,
  onPickUp,
}: {
  tickets: Tickets;
  onClose: () => void;
  onPickUp: (ticket: TicketSummary) => Promise<void>;
}) {
  const t = useTranslations('till');
  const { ref, onCancel } = useModal(onClose);
  const { list, refresh } = tickets;
  useEffect(() => {
    void refresh();
  }, [refresh]);
  return (
    <dialog ref={ref} className={`${s.dialog} ${k.dialog}`} aria-labelledby="open-tickets-title" onCancel={onCancel}>
      <h2 id="open-tickets-title">{t('openTickets')}</h2>
      {tickets.error ? (
        <p className={s.notice} role="alert">
          {tickets.error}
        </p>
      ) : null}
      {list === null ? <p role="status">{t('ticketsLoading')}</p> : null}
      {list?.length === 0 ? <p>{t('noTickets')}</p> : null}
      {list?.length ? (
        <ul className={k.list} aria-label={t('openTickets')}>
          {list.map((ticket) => (
            <TicketRow key={ticket.id} ticket={ticket} tickets={tickets} onPickUp={onPickUp} />
          ))}
        </ul>
      ) : null}
      <div className={s.dialogActions}>
        <button type="button" className={s.secondary} onClick={onClose}>
          {t('closeTickets')}
        </button>
      </div>
    </dialog>
  );
}

function TicketRow({
  ticket,
  tickets,
  onPickUp,
}: {
  ticket: TicketSummary;
  tickets: Tickets;
  onPickUp: (ticket: TicketSummary) => Promise<void>;
}) {
  const t = useTranslations('till');
  const currency = (ticket.cart as { currency?: unknown } | null)?.currency;
  const minor = typeof currency === 'string' ? totalMinor(ticket.total, currency) : null;
  return (
    <li className={k.row} data-testid="ticket-row">
      <span className={k.name}>{ticket.name}</span>
      <span className={k.meta}>
        {minor !== null && typeof currency === 'string' ? <Money currency={currency} k={minor} /> : ticket.total}
        {ticket.user ? ` · ${t('ticketBy', { user: ticket.user })}` : ''}
      </span>
      <button
        type="button"
        className={s.primary}
        onClick={() => void onPickUp(ticket)}
        aria-label={t('pickUpTicket', { name: ticket.name })}
      >
        {t('pickUp')}
      </button>
      <button
        type="button"
        className={s.link}
        onClick={() => void tickets.remove(ticket)}
        aria-label={t('deleteTicket', { name: ticket.name })}
      >
        {t('delete')}
      </button>
    </li>
  );
}
