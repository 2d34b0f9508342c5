/** Why an amount string was rejected. */
export type AmountErrorCode =
  | 'type' // not a string
  | 'empty' // ""
  | 'whitespace' // any whitespace anywhere
  | 'sign' // '+' (never allowed) or '-' without allowNegative
  | 'exponent' // scientific notation such as "1e5"
  | 'malformed' // anything else that is not [digits][.digits]
  | 'too_many_decimals' // more than 8 decimal places (the reference truncates; we reject)
  | 'too_large'; // |amount| > MAX_MONEY

/** Typed error thrown by `parseKoinu`. */
export class AmountError extends Error {
  readonly code: AmountErrorCode;
  constructor(code: AmountErrorCode, message: string) {
    super(message);
    this.name = 'AmountError';
    this.code = code;
  }
}
