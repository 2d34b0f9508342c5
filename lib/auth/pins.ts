// Staff PINs (docs/counter.md): 4 to 8 digits, hashed with scrypt exactly as passwords are
// (lib/auth/passwords.ts). A PIN is short, so the hash alone does not protect it: what does is
// that a PIN works only on a registered terminal, only for the till, and is throttled per
// terminal and per user (lib/auth/sign-in-throttle.ts). The weakest PINs are refused outright.
import { hashPassword, verifyPassword } from './passwords';

export const MIN_PIN_LENGTH = 4;
export const MAX_PIN_LENGTH = 8;

/** Why a PIN is unacceptable, or null. */
export function pinProblem(pin: string): string | null {
  if (!/^[0-9]+$/.test(pin)) return 'must be digits only';
  if (pin.length < MIN_PIN_LENGTH || pin.length > MAX_PIN_LENGTH) return `must be ${MIN_PIN_LENGTH} to ${MAX_PIN_LENGTH} digits`;
  if (/^(\d)\1+$/.test(pin)) return 'must not be one repeated digit';
  const steps = new Set<number>();
  for (let i = 1; i < pin.length; i++) steps.add(pin.charCodeAt(i) - pin.charCodeAt(i - 1));
  if (steps.size === 1 && (steps.has(1) || steps.has(-1))) return 'must not be a straight run such as 1234 or 9876';
  return null;
}

export const hashPin = (pin: string): Promise<string> => hashPassword(pin);

export function verifyPin(pin: string, stored: string | null | undefined): Promise<boolean> {
  if (!stored || pin.length > MAX_PIN_LENGTH) return Promise.resolve(false);
  return verifyPassword(pin, stored);
}
