const GRACE_CHOICES = [
  { seconds: 0, label: 'Immediately' },
  { seconds: 3600, label: '1 hour' },
  { seconds: 86_400, label: '24 hours' },
  { seconds: 604_800, label: '7 days' },
];

/** How long the credential being replaced keeps working after a rotation. */
export function GraceSelect({
  id,
  value,
  onChange,
  label = 'Old key keeps working for',
}: {
  id: string;
  value: number;
  onChange: (v: number) => void;
  label?: string;
}) {
  return (
    <label htmlFor={id} className="inline-flex items-center gap-2 text-sm">
      {label}
      <select
        id={id}
        value={value}
        onChange={(e) => onChange(Number(e.target.value))}
        className="rounded-md border border-slate-300 bg-white px-2 py-1 dark:border-slate-700 dark:bg-slate-900"
      >
        {GRACE_CHOICES.map((c) => (
          <option key={c.seconds} value={c.seconds}>
            {c.label}
          </option>
        ))}
      </select>
    </label>
  );
}
