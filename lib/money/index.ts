export { DECIMALS, MAX_MONEY, ONE_DOGE } from './constants';
export { AmountError, type AmountErrorCode } from './errors';
export { parseKoinu, parseKoinuInput, type ParseKoinuOptions } from './parse';
export { formatKoinu, formatKoinuFixed, koinuToDogeNumber } from './format';
