// Cash as a tender (docs/counter.md#cash): the cash sale, its change, and the shift's drawer.
export { createCashSale, tenderOf, type CashSaleContext } from './create-cash-sale';
export { cashChange, parseCash, CashAmountError, type CashChange } from './change';
export { drawer, closeShift, shiftStart, ShiftError, type Drawer, type ClosedShift } from './shift';
