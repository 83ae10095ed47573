const BADGE: Record<string, string> = {
  green: 'bg-emerald-100 text-emerald-800 dark:bg-emerald-900/50 dark:text-emerald-200',
  amber: 'bg-amber-100 text-amber-900 dark:bg-amber-900/50 dark:text-amber-200',
  red: 'bg-red-100 text-red-800 dark:bg-red-900/50 dark:text-red-200',
  slate: 'bg-slate-100 text-slate-700 dark:bg-slate-800 dark:text-slate-300',
};

export function Badge({ tone = 'slate', children }: { tone?: keyof typeof BADGE; children: React.ReactNode }) {
  return <span className={`inline-flex rounded px-2 py-0.5 text-xs font-medium ${BADGE[tone]}`}>{children}</span>;
}

/** The badge colour of any status the console shows (rooms, keys, deliveries, recordings, participants). */
export function statusTone(status: string): keyof typeof BADGE {
  const s = status.toUpperCase();
  if (['ACTIVE', 'DELIVERED', 'COMPLETED', 'CONNECTED'].includes(s)) return 'green';
  if (['PENDING', 'RETRYING', 'WAITING', 'STARTING', 'EXPIRING'].includes(s)) return 'amber';
  if (['FAILED', 'SUSPENDED', 'REVOKED', 'DENIED', 'REMOVED'].includes(s)) return 'red';
  return 'slate';
}
