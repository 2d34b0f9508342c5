export {
  resolveRange,
  parseBound,
  checkZone,
  startOfLocalDay,
  splitDays,
  localDate,
  localIso,
  ymd,
  MAX_RANGE_DAYS,
  type ReportRange,
} from './range';
export { salesReport, storeTimezone, type SalesReport } from './sales-report';
export { salesCsv, SALES_CSV_COLUMNS } from './sales-csv';
export { refundsConfirmedInPeriod } from './refunds';
export { salesByCategory, type CategoryRow } from './by-category';
