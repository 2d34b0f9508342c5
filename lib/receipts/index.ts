// Receipts: the model, the printed and emailed forms, and the store's receipt settings.
// What other folders use of lib/receipts: they import it from here (.dependency-cruiser.cjs, lib-through-index).
export { fiatReceiptLines, hasFiatLines, receiptLines, type ReceiptModel, receiptAmount } from './model';
export {
  receiptSettingsData,
  receiptSettingsFields,
  receiptSettingsView,
  type ReceiptSettingsView,
  OWNER_ONLY_FIELDS,
} from './store-settings';
export { storeZone, type Receipt, loadReceipt } from './receipt';
export { emailReceipt } from './send';
export { escapeHtml, sendMail, smtpConfig } from './email';
