export { resolveRange, startOfLocalDay, localDate, ymd } from './range';
export { salesReport, storeTimezone, type SalesReport } from './sales-report';
export { salesCsv, SALES_CSV_COLUMNS } from './sales-csv';
