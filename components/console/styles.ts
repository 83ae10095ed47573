/** The console's shared class lists, so pages and forms read as content rather than Tailwind. */
const button =
  'inline-flex items-center justify-center gap-2 rounded-md px-3 py-1.5 text-sm font-medium focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600 disabled:cursor-not-allowed disabled:opacity-50';
export const primaryButton = `${button} bg-blue-700 text-white hover:bg-blue-800`;
export const secondaryButton = `${button} border border-slate-300 bg-white text-slate-800 hover:bg-slate-50 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100 dark:hover:bg-slate-800`;
export const dangerButton = `${button} bg-red-700 text-white hover:bg-red-800`;
export const input =
  'block w-full rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm dark:border-slate-700 dark:bg-slate-900 focus-visible:outline focus-visible:outline-2 focus-visible:outline-blue-600';
/** A text link inside a page or a table. */
export const link = 'text-blue-700 hover:underline dark:text-blue-300';
