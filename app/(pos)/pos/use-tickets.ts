'use client';
// Open tickets on the till (docs/counter.md#open-tickets): Save sale keeps the cart on the server
// under a ticket name ("Table 4"), Open tickets lists the store's, and picking one up brings its
// cart back, with the version read (`updated_at`). Saving a picked-up ticket sends that version
// back, so when another cashier changed it meanwhile the server answers 409 and the till says so
// instead of overwriting their change. The ticket picked up is charged with its id (ticket_id),
// which closes it once paid. Tickets live on the server, so they outlast a reload, a lock and a
// change of cashier.
import { useCallback, useState } from 'react';
import { useTranslations } from 'next-intl';
import { csrfFetch } from '@/app/_lib/csrf-fetch';
import { readJson, ReadError } from '@/app/_lib/swr';
import { amountString, cartOfTicket, ticketCartJson } from '@/lib/pos/client';
import type { Cart } from './use-cart';

export interface TicketSummary {
  id: string;
  name: string;
  cart: unknown;
  total: string;
  user: string;
  updated_at: string;
}

/** The ticket the cart came from: charging sends its id, saving sends back the version read. */
export interface HeldTicket {
  id: string;
  name: string;
  updated_at: string;
}

async function answer(r: Response): Promise<{ message?: string } & Partial<TicketSummary>> {
  return (await r.json().catch(() => ({}))) as { message?: string } & Partial<TicketSummary>;
}

export function useTickets(cart: Cart, currency: string, onParked: () => void) {
  const t = useTranslations('till');
  const [held, setHeld] = useState<HeldTicket | null>(null);
  const [list, setList] = useState<TicketSummary[] | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const [notice, setNotice] = useState('');

  const body = () => ({
    cart: ticketCartJson({ currency, lines: cart.lines, extras: cart.extras }),
    total: amountString(cart.totals.total, currency),
  });

  /** Saves the cart: a new ticket named `name`, or the held one (409 when someone changed it since). True once saved. */
  async function save(name?: string): Promise<boolean> {
    setError('');
    setNotice('');
    setBusy(true);
    try {
      const r = held
        ? await csrfFetch(`/api/pos/tickets/${encodeURIComponent(held.id)}`, {
            method: 'PUT',
            body: JSON.stringify({ ...body(), updated_at: held.updated_at }),
          })
        : await csrfFetch('/api/pos/tickets', { method: 'POST', body: JSON.stringify({ ...body(), name }) });
      const b = await answer(r);
      if (r.status === 409) return (setError(t('ticketConflict', { name: held?.name ?? '' })), false);
      if (r.status === 404) return (setError(t('ticketGone', { name: held?.name ?? '' })), false);
      if (!r.ok) return (setError(b.message ?? t('ticketSaveFailed', { status: r.status })), false);
      setNotice(t('ticketSaved', { name: b.name ?? name ?? '' }));
      setHeld(null);
      onParked();
      return true;
    } catch {
      setError(t('ticketNetwork'));
      return false;
    } finally {
      setBusy(false);
    }
  }

  /** Reads the list afresh; the one read before is dropped first, so a stale version is never picked up. */
  const refresh = useCallback(async () => {
    setError('');
    setList(null);
    try {
      setList((await readJson<{ tickets?: TicketSummary[] }>('/api/pos/tickets')).tickets ?? []);
    } catch (e) {
      if (!(e instanceof ReadError)) return setError(t('ticketNetwork'));
      setError((e.body as { message?: string } | null)?.message ?? t('ticketListFailed', { status: e.status }));
    }
  }, [t]);

  /** Brings a ticket's cart onto the till (the cart it replaces was cleared or saved first). */
  function pickUp(ticket: TicketSummary): boolean {
    const saved = cartOfTicket(ticket.cart, currency);
    if (!saved) return (setError(t('ticketUnreadable', { name: ticket.name })), false);
    cart.load(saved.lines, saved.extras);
    setHeld({ id: ticket.id, name: ticket.name, updated_at: ticket.updated_at });
    setNotice('');
    setError('');
    return true;
  }

  async function remove(ticket: TicketSummary) {
    setError('');
    try {
      const r = await csrfFetch(`/api/pos/tickets/${encodeURIComponent(ticket.id)}`, { method: 'DELETE' });
      if (!r.ok && r.status !== 404) return setError((await answer(r)).message ?? t('ticketDeleteFailed', { status: r.status }));
      if (held?.id === ticket.id) setHeld(null);
      setNotice(t('ticketDeleted', { name: ticket.name }));
      await refresh();
    } catch {
      setError(t('ticketNetwork'));
    }
  }

  /** The sale is over (New sale, Clear sale): the cart no longer belongs to a ticket. */
  const release = useCallback(() => {
    setHeld(null);
    setError('');
  }, []);

  return { held, list, busy, error, notice, save, refresh, pickUp, remove, release, clearNotice: () => setNotice('') };
}

export type Tickets = ReturnType<typeof useTickets>;
