// The invoice list a store's staff and API keys read: filtered, paged and scoped to one store.
// What other folders use of lib/invoices: they import it from here (.dependency-cruiser.cjs, lib-through-index).
export { listInvoices, parseInvoiceQuery } from './list-invoices';
