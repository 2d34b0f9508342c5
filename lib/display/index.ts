// The customer's display: pairing, the cart it mirrors, the tip it asks for and its view.
// What other folders use of lib/display: they import it from here (.dependency-cruiser.cjs, lib-through-index).
export {
  displayForToken,
  DISPLAY_COOKIE,
  createPairingCode,
  displayCookie,
  formatPairingCode,
  normalisePairingCode,
  redeemPairingCode,
  type PairedDisplay,
} from './pairing';
export { answerTip, endTipWait, startTipWait, tipWaitOf, storedTipWait, tipScreen, type TipScreen } from './tip';
export { publishCart, displayRows, type DisplayRow } from './cart';
export { DisplayCartSchema, displayPayment, storedCart, type DisplayPayment, type DisplayState, type DisplayCart } from './view';
