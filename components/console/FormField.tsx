/**
 * A labelled control (children) with its help line underneath, id `${id}-help`, which the control
 * names in aria-describedby. When there is an error the help line says it instead, in red.
 */
export function FormField({
  id,
  label,
  help,
  error,
  children,
}: {
  id: string;
  label: string;
  help?: React.ReactNode;
  error?: string;
  children: React.ReactNode;
}) {
  return (
    <div>
      <label htmlFor={id} className="mb-1 block text-sm font-medium">
        {label}
      </label>
      {children}
      {(help || error) && (
        <p
          id={`${id}-help`}
          className={`mt-1 text-xs ${error ? 'text-red-700 dark:text-red-300' : 'text-slate-600 dark:text-slate-400'}`}
        >
          {error || help}
        </p>
      )}
    </div>
  );
}
