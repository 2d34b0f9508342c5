// The back office's domain: invoices, catalog, users, keys, terminals, settings, reports and the audit log.
// What other folders use of lib/backoffice: they import it from here (.dependency-cruiser.cjs, lib-through-index).
export { recordAudit, listAudit } from './audit';
export {
  csvField,
  parseInvoiceFilter,
  searchInvoices,
  invoiceDetail,
  exportInvoicesCsv,
  exportInvoicesJson,
  redeliverEvent,
  type InvoiceFilter,
  STATUSES,
  type InvoiceRowView,
} from './invoices';
export { readNodeStatus, NODE_TEXT_ENDPOINTS } from './node-status';
export { changeBirthday, startOperatorRescan } from './wallet-history';
export { salesPerDay, chartBars, type SalesDay } from './sales';
export { createUserWithRole, listUserViews, updateUser, type UserView } from './users';
export { listTerminals, registerTerminal, renameTerminal, revokeTerminal, unpairDisplays } from './terminals';
export { relayKeyView, rotateRelayKeyView, createApiKeyFor, listApiKeys, revokeKey, type ApiKeyView, type RelayKeyView } from './keys';
export { readSettings, type SettingsView } from './settings';
export { changeSettings, regenerateWebhookSecretAs } from './settings-change';
export { createProduct, listProducts, productCategories, updateProduct, type ProductView, pricingCurrency } from './catalog';
export { exportCatalogCsv, decodeCatalogCsv, importCatalogCsv, IMPORT_MAX_BYTES, type ImportPlan } from './catalog-csv';
export { setUserPin } from './pins';
export { BackofficeError } from './errors';
export { recentDeliveries } from './deliveries';
