// The till's domain: the cart, catalog search, sales, tickets, charge-again and the payment screen's state.
// What other folders use of lib/pos: they import it from here (.dependency-cruiser.cjs, lib-through-index).
export {
  posStore,
  type PosProduct,
  type PosStore,
  type RecentSale,
  posCatalog,
  posCategories,
  recentSales,
  type PosOptionGroup,
} from './catalog';
export { createTicket, listTickets, deleteTicket, updateTicket } from './tickets';
export { type PosPaymentState, type PosPaymentView } from './payment-state';
export { dogeText, moneyText } from './cart';
export { chargeAgain } from './charge-again';
