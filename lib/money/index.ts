export { DECIMALS, MAX_MONEY, ONE_DOGE } from './constants';
export { AmountError, type AmountErrorCode } from './errors';
export { parseKoinu, parseKoinuInput, type ParseKoinuOptions } from './parse';
export { formatKoinu, formatKoinuFixed, koinuToDogeNumber } from './format';
export {
  parseDecimal,
  formatDecimal,
  compareDecimal,
  addDecimal,
  halveDecimal,
  decimalFromUnits,
  normalize as normalizeDecimal,
  type Decimal,
} from './decimal';
export { fiatToKoinu, currencyMinorDigits, parseFiatMinor, formatFiatMinor } from './fiat';
