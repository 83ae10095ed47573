import { PLAN_NAMES, type PlanName } from '@/lib/domain/plans';
import { input } from '@/components/console/styles';

export function PlanSelect({
  value,
  onChange,
  disabled,
  className = '',
}: {
  value: PlanName;
  onChange: (plan: PlanName) => void;
  disabled?: boolean;
  className?: string;
}) {
  return (
    <label className={`block text-sm ${className}`}>
      <span className="mb-1 block font-medium">Plan</span>
      <select
        className={input}
        value={value}
        onChange={(e) => onChange(e.target.value as PlanName)}
        disabled={disabled}
      >
        {PLAN_NAMES.map((p) => (
          <option key={p} value={p}>
            {p}
          </option>
        ))}
      </select>
    </label>
  );
}
