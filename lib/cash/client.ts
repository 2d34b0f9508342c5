// The part of lib/cash safe in a browser bundle: the till shows the change as the cashier types.
export { cashChange, CashAmountError } from './change';
