// The frame of the pages a visitor signs in, signs up, sets up or takes an invite on: the brand,
// the page's heading, its form, and the language select.
import Link from 'next/link';
import { LanguageSelect } from './language-select';
import { MIN_PASSWORD_LENGTH } from '@/lib/auth';
import type { AuthField } from './auth-form';

export function AuthCard({ title, signedIn = false, children }: { title: string; signedIn?: boolean; children: React.ReactNode }) {
  return (
    <main className="auth-shell">
      <div className="auth-card">
        <Link href="/" className="brand">
          <span className="brand-mark">Ð</span>Counter
        </Link>
        <h1>{title}</h1>
        {children}
        <LanguageSelect signedIn={signedIn} />
      </div>
    </main>
  );
}

/** A new account's password field, with the length it needs: `hint` is the hint's text for that length. */
export function newPasswordField(label: string, hint: (n: number) => string): AuthField {
  return { name: 'password', label, type: 'password', autoComplete: 'new-password', hint: hint(MIN_PASSWORD_LENGTH) };
}
