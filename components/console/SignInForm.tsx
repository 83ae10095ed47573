'use client';

import { useState } from 'react';
import { signIn } from 'next-auth/react';
import { FormField } from '@/components/console/FormField';
import { input, primaryButton } from '@/components/console/styles';

const ERRORS: Record<string, string> = {
  CredentialsSignin: 'That email and password do not match an account.',
  TooManyAttempts: 'Too many attempts. Wait 15 minutes and try again.',
  SessionRequired: 'Your session ended. Sign in again.',
};

export function SignInForm({ initialError }: { initialError?: string }) {
  const [error, setError] = useState(initialError ? (ERRORS[initialError] ?? 'Sign-in failed. Try again.') : '');
  const [pending, setPending] = useState(false);

  async function submit(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    setPending(true);
    setError('');
    const form = new FormData(e.currentTarget);
    // next-auth fetches its CSRF token and posts it with the credentials (double-submit cookie).
    const result = await signIn('credentials', {
      email: form.get('email'),
      password: form.get('password'),
      redirect: false,
    });
    if (result?.ok && !result.error) {
      window.location.assign('/console');
      return;
    }
    setPending(false);
    setError(ERRORS[result?.error ?? ''] ?? 'Sign-in failed. Try again.');
  }

  return (
    <form onSubmit={submit} className="space-y-4" noValidate>
      <FormField id="email" label="Email">
        <input id="email" name="email" type="email" autoComplete="username" required className={input} />
      </FormField>
      <FormField id="password" label="Password">
        <input
          id="password"
          name="password"
          type="password"
          autoComplete="current-password"
          required
          className={input}
        />
      </FormField>
      {error && (
        <p role="alert" className="text-sm text-red-700 dark:text-red-300">
          {error}
        </p>
      )}
      <button type="submit" className={`${primaryButton} w-full`} disabled={pending}>
        {pending ? 'Signing in…' : 'Sign in'}
      </button>
    </form>
  );
}
