// HTTP plumbing for app/'s routes: sessions and keys checked, bodies read, domain errors mapped to statuses (docs/architecture.md#layers).
// What other folders use of lib/api: they import it from here (.dependency-cruiser.cjs, lib-through-index).
export { json, NO_STORE, transient } from './respond';
export { readBodyText, parseJsonOrUndefined, readBodyBytes } from './body';
export { idempotencyKey, jsonBody, oneOf, queryParam, intParam } from './validate';
export { acquireStreamSlot, acquireCheckoutStreamSlot } from './stream-slot';
export { adminRoute, readJson, requireRole } from './admin';
export { clientInfo, clientAddress } from './client-address';
export { logout, me, login, switchStore, setup } from './auth-routes';
export { pinLogin, lockScreen, lockUsers } from './pin-routes';
export { displayStatus, displayEvents, pairDisplay, pairingCode, publishDisplayCart } from './display-routes';
export { displayTip, tillTip } from './display-tip-routes';
export { walletCheckContext, walletCheckPort } from './wallet-check-routes';
export { getShift, postCloseShift } from './shift-routes';
export { demoRoute, demoNoMethod } from './demo-route';
export { vendorRoute } from './vendor-route';
export { saleTerminal } from './sale-terminal';
export { handle } from './handle';
export { reportAccess } from './report-access';
export { setLocale } from './locale-route';
export { operatorRoute } from './operator';
export { ticketCall } from './ticket-routes';
export { notFoundResponse } from './not-found';
export { health } from './health-route';
export { signup } from './signup-route';
export { inviteAccount, inviteAccept } from './invite-routes';
