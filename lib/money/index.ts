export { DECIMALS, MAX_MONEY, ONE_DOGE } from './constants';
export { AmountError, type AmountErrorCode } from './errors';
export { parseKoinu, parseKoinuInput } from './parse';
export { formatKoinu, formatKoinuFixed, koinuToDogeNumber } from './format';
export { parseDecimal, formatDecimal, compareDecimal, addDecimal, halveDecimal, type Decimal } from './decimal';
export { fiatToKoinu, currencyMinorDigits, parseFiatMinor, formatFiatMinor } from './fiat';
