export default function Loading() {
  return (
    <div role="status" aria-live="polite" className="animate-pulse space-y-4">
      <span className="sr-only">Loading…</span>
      <div className="h-8 w-48 rounded bg-slate-200 dark:bg-slate-800" />
      <div className="h-32 rounded bg-slate-100 dark:bg-slate-900" />
    </div>
  );
}
