// Why a new payment is refused besides a bad request: lib/api turns them into 403 and 429.

/** 403 forbidden on the vendor API: the credential lacks the scope a field needs. */
export class ForbiddenFieldError extends Error {
  constructor(readonly field: string, message: string) {
    super(`${field}: ${message}`);
    this.name = 'ForbiddenFieldError';
  }
}

/** 429: the store already has MAX_OPEN_PAYMENTS open unpaid payments. */
export class TooManyOpenPaymentsError extends Error {
  constructor(readonly limit: number) {
    super(`the store already has ${limit} open unpaid payments (MAX_OPEN_PAYMENTS); cancel some or wait for them to expire`);
    this.name = 'TooManyOpenPaymentsError';
  }
}
