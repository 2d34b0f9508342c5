// The part of lib/payments safe in a browser bundle: the payment states the till shows.
export { isPastExpiry, tillStateOfView } from './predicates';
