import Link from 'next/link';
import { redirect } from 'next/navigation';
import { AuthForm } from '@/app/_lib/auth-form';
import { appContext } from '@/lib/app-context';
import { userCount, MIN_PASSWORD_LENGTH } from '@/lib/auth';

export const dynamic = 'force-dynamic';

export default async function SetupPage() {
  if ((await userCount((await appContext()).db)) > 0) redirect('/login');
  return (
    <main className="auth-shell">
      <div className="auth-card">
        <Link href="/" className="brand"><span className="brand-mark">Ð</span>Counter</Link>
        <h1>Create the owner account</h1>
        <p className="muted">Enter the one-time setup code from the server log (the line “no account exists yet”).</p>
        <AuthForm
          endpoint="/api/auth/setup"
          next="/admin"
          submitLabel="Create account"
          fields={[
            { name: 'code', label: 'Setup code', type: 'text', autoComplete: 'one-time-code' },
            { name: 'name', label: 'Your name', type: 'text', autoComplete: 'name', required: false },
            { name: 'email', label: 'Email', type: 'email', autoComplete: 'username' },
            { name: 'password', label: 'Password', type: 'password', autoComplete: 'new-password', hint: `At least ${MIN_PASSWORD_LENGTH} characters.` },
          ]}
        />
      </div>
    </main>
  );
}
