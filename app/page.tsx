import Link from 'next/link';

export default function Home() {
  return (
    <main className="mx-auto max-w-2xl px-6 py-16">
      <h1 className="text-3xl font-semibold">Convene</h1>
      <p className="mt-4 text-slate-600 dark:text-slate-300">
        Hosted video meetings for your product: create rooms, mint join links, and receive signed webhooks.
      </p>
      <ul className="mt-8 space-y-2 text-blue-700 underline dark:text-blue-300">
        <li>
          <Link href="/console">Console</Link>
        </li>
        <li>
          <Link href="/docs">API reference</Link>
        </li>
        <li>
          <a href="/api/v1/health">Health</a>
        </li>
      </ul>
    </main>
  );
}
