'use client';
// Following one payment's event stream in the browser: the till's (/api/v1/payments/<id>/events)
// and the customer's checkout page's (/api/checkout/<id>/events) speak the same events
// (docs/live.md): `payment` with the payment's view, then `end` with a reason. After an `end` that
// says final or not_found nothing more will change, so the stream is closed; any other end
// (connection lifetime, database trouble) is the server closing, and EventSource reconnects.

export interface PaymentStreamHandlers<T> {
  /** The payment as it is now (also a sign that the stream is up). */
  payment: (view: T) => void;
  /** The stream is (again) open: what happened while it was away is worth a fetch. */
  open: () => void;
  /** The stream dropped; `refused`: EventSource gave up for good (429, 5xx), no retry of its own. */
  down: (refused: boolean) => void;
}

/** Opens the stream; the function returned closes it. */
export function followPaymentEvents<T>(url: string, on: PaymentStreamHandlers<T>): () => void {
  let done = false;
  const es = new EventSource(url);
  es.addEventListener('payment', (e) => on.payment(JSON.parse((e as MessageEvent).data) as T));
  es.addEventListener('end', (e) => {
    const reason = (JSON.parse((e as MessageEvent).data) as { reason?: string }).reason;
    if (reason === 'final' || reason === 'not_found') {
      done = true;
      es.close();
    }
  });
  es.onopen = () => on.open();
  es.onerror = () => {
    if (!done) on.down(es.readyState === EventSource.CLOSED);
  };
  return () => {
    done = true;
    es.close();
  };
}
