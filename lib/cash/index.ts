// Cash as a tender (docs/counter.md#cash): the cash sale, its change, and the shift's drawer.
export { createCashSale, tenderOf } from './create-cash-sale';
export { drawer, closeShift } from './shift';
