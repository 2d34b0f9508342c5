// `invoices`: p50/p99 of GET /invoices/{address} at 1,000,000 invoices (target p99 < 50 ms).
// TODO: needs the /invoices route (app/invoices, another engineer's work); seeding can reuse
// lib/seed.mjs.
export default {
  name: 'invoices',
  description: 'GET /invoices/{address} p99 at 1,000,000 invoices, target < 50 ms',
  available: 'not yet available: needs the /invoices route',
};
