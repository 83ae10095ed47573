/**
 * State that must exist once per process. Next.js compiles instrumentation.ts (the delivery
 * runner, the queue workers, graceful shutdown) and the route handlers into separate module
 * graphs, so a module-level variable exists once per graph: the routes' usage counts, runner
 * wake-ups and queue sends would never meet the instances that shutdown flushes and stops. Such
 * state lives on globalThis, one entry per name.
 */
export function processState<T extends object>(name: string, create: () => T): T {
  const g = globalThis as typeof globalThis & { __convene?: Record<string, object> };
  g.__convene ??= {};
  return (g.__convene[name] ??= create()) as T;
}
