import type { Metadata } from 'next';
import { SignInForm } from '@/components/console/SignInForm';

export const metadata: Metadata = { title: 'Sign in · Convene console' };

export default async function SignInPage({ searchParams }: { searchParams: Promise<{ error?: string }> }) {
  const { error } = await searchParams;
  return (
    <main className="flex min-h-screen items-center justify-center bg-slate-50 px-4 dark:bg-slate-950">
      <div className="w-full max-w-sm rounded-xl border border-slate-200 bg-white p-8 shadow-sm dark:border-slate-800 dark:bg-slate-900">
        <h1 className="mb-1 text-xl font-semibold">Sign in to Convene</h1>
        <p className="mb-6 text-sm text-slate-600 dark:text-slate-400">Tenant admins and resellers.</p>
        <SignInForm initialError={error} />
      </div>
    </main>
  );
}
