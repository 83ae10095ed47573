/** 2026-11-23 10:04 UTC; a missing date is a dash. */
export const fmtDate = (iso: string | Date | null | undefined) =>
  iso ? new Date(iso).toISOString().replace('T', ' ').slice(0, 16) + ' UTC' : '—';

/** 2026-11-23 10:04:05 UTC: attendance is kept to the second. */
export const fmtTime = (iso: string) => `${iso.replace('T', ' ').slice(0, 19)} UTC`;

/** 3725 → "1 h 02 min 05 s". */
export function fmtSeconds(total: number): string {
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const pad = (n: number) => String(n).padStart(2, '0');
  return h ? `${h} h ${pad(m)} min ${pad(s)} s` : m ? `${m} min ${pad(s)} s` : `${s} s`;
}
