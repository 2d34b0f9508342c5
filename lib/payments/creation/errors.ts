// Why a new payment is refused besides a bad request: forbidden and too_many_open_payments.
import { DomainError } from '../../errors';

/** 403 forbidden on the vendor API: the credential lacks the scope a field needs. */
export class ForbiddenFieldError extends DomainError {
  constructor(field: string, message: string) {
    super('forbidden', `${field}: ${message}`, field);
    this.name = 'ForbiddenFieldError';
  }
}

/** 429: the store already has MAX_OPEN_PAYMENTS open unpaid payments. */
export class TooManyOpenPaymentsError extends DomainError {
  constructor(readonly limit: number) {
    super(
      'too_many_open_payments',
      `the store already has ${limit} open unpaid payments (MAX_OPEN_PAYMENTS); cancel some or wait for them to expire`,
    );
    this.name = 'TooManyOpenPaymentsError';
  }
}
