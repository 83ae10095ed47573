// Next.js calls register() once per server process: start the in-process queue workers there.
export async function register() {
  if (process.env.NEXT_RUNTIME === 'nodejs') {
    const { boot, shutdown, assertValidEnvironment } = await import('./lib/runtime/boot');
    // An invalid environment stops the process (exit 1) with a message naming the variable, so an
    // orchestrator sees the failure; Next would otherwise keep serving a plain-text 500.
    assertValidEnvironment();
    await boot();
    let stopping = false;
    const onSignal = () => {
      if (stopping) return;
      stopping = true;
      if (process.env.NEXT_MANUAL_SIG_HANDLE) {
        void shutdown().finally(() => process.exit(0));
        return;
      }
      // Next's own SIGTERM/SIGINT handler stops accepting connections, lets in-flight requests
      // finish and then calls process.exit at once. Our work must finish after those requests and
      // before that exit (in-flight webhook attempts, the usage counters they added), so the exit
      // waits for it.
      const exit = process.exit.bind(process);
      process.exit = ((code?: number) => {
        void shutdown().finally(() => exit(code));
      }) as typeof process.exit;
    };
    process.on('SIGTERM', onSignal);
    process.on('SIGINT', onSignal);
  }
}
