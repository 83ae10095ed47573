import Link from 'next/link';

export default function NotFound() {
  return (
    <div className="py-16 text-center">
      <h1 className="text-2xl font-semibold">Not found</h1>
      <p className="mt-2 text-slate-600 dark:text-slate-400">There is nothing here for your account.</p>
      <Link href="/console" className="mt-4 inline-block text-blue-700 underline dark:text-blue-300">
        Back to the console
      </Link>
    </div>
  );
}
