'use client';

export default function ConsoleError({ reset }: { error: Error; reset: () => void }) {
  return (
    <div role="alert" className="py-16 text-center">
      <h1 className="text-2xl font-semibold">This page could not load</h1>
      <p className="mt-2 text-slate-600 dark:text-slate-400">
        Something went wrong on our side. Your data is unchanged.
      </p>
      <button
        type="button"
        onClick={reset}
        className="mt-4 rounded-md bg-blue-700 px-3 py-1.5 text-sm font-medium text-white"
      >
        Try again
      </button>
    </div>
  );
}
