'use client';
import type { ComponentPropsWithRef, ReactNode } from 'react';
import { useHydrated } from './use-hydrated';

/**
 * A button that acts through its onClick (the back office's, the checkout's Copy and Print, an
 * invite's Accept, the wallet check's Start): a `<button type="button">` that stays disabled until
 * the page has hydrated (app/_lib/use-hydrated.ts). Before that the server's HTML is on screen
 * with no handler behind it, and a click (a merchant on a slow tablet, a customer on a phone, a
 * Playwright test) would be lost without a sign; disabled, it cannot be clicked, and Playwright's click waits
 * for it to be enabled. A button mounted after hydration is live at once. Its own `disabled`
 * still applies; every other prop (className, data-*, aria-*, ref) goes to the button as given.
 */
export function ActionButton({ disabled, ...props }: Omit<ComponentPropsWithRef<'button'>, 'type'>) {
  const hydrated = useHydrated();
  return <button {...props} type="button" disabled={!hydrated || disabled} />;
}

/**
 * A back-office form's submit button, disabled until the page has hydrated for the same reason.
 * A submit on the server's HTML would send the form natively, as a GET by default: the page
 * reloads with what was typed in its URL (an account key, a note) and nothing is saved. While
 * the form's default button is disabled, Enter in a field does not submit it either.
 */
export function SubmitButton({ disabled, ...props }: Omit<ComponentPropsWithRef<'button'>, 'type'>) {
  const hydrated = useHydrated();
  return <button {...props} type="submit" disabled={!hydrated || disabled} />;
}

/**
 * A back-office form's fields, disabled until the page has hydrated. Its inputs are controlled:
 * what is typed into the server's HTML before React takes over stays on screen but never reaches
 * the form's state, so Save would send the field as it was and say "saved" (an owner's account
 * key, typed on the settings page the invite leads to, was lost this way). Disabled, a field
 * takes no typing, and Playwright's fill waits for it. The fieldset has no box of its own
 * (`display: contents`, app/globals.css), so the form's layout is as before, and no role
 * (`role="none"`), so a screen reader announces no unnamed group around the fields.
 */
export function HydratedFields({ children }: { children: ReactNode }) {
  const hydrated = useHydrated();
  return (
    <fieldset className="hydrated-fields" role="none" disabled={!hydrated}>
      {children}
    </fieldset>
  );
}
