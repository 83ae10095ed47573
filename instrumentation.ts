// Next.js calls register() once per server process: start the in-process queue workers there.
export async function register() {
  if (process.env.NEXT_RUNTIME === 'nodejs') {
    const { boot, shutdown } = await import('./lib/runtime/boot');
    await boot();
    process.once('SIGTERM', () => void shutdown().finally(() => process.exit(0)));
  }
}
