// Time zones: a store's day and the dates its reports cover.
// What other folders use of lib/time: they import it from here (.dependency-cruiser.cjs, lib-through-index).
export { isValidTimeZone, storeTimeZone, formatStoreTime, localDate, startOfLocalDay, localDateTime, type TimeStyle } from './zone';
