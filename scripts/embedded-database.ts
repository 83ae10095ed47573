/**
 * `npm start`'s embedded PostgreSQL, in a process and a process group of its own. Ctrl-C in a
 * terminal signals the whole foreground process group, and PostgreSQL answers SIGINT with a fast
 * shutdown: it cut the server off while it was still shutting down gracefully, and the queue
 * logged "terminating connection due to administrator command" at level 50. Started from here,
 * the database hears no terminal signal: it stops when npm start says so over IPC (after the
 * server has exited), or when npm start is gone.
 */
import { startEmbeddedPostgres } from '../lib/runtime/embedded-postgres';

const { dir, port } = JSON.parse(process.argv[2] ?? '{}') as { dir: string; port: number };
const database = await startEmbeddedPostgres({ dir, port, stopOnSignal: false });
let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  await database.stop();
  process.exit(0);
};
process.on('message', (message) => {
  if (message === 'stop') void stop();
});
process.on('disconnect', () => void stop());
process.send!({ url: database.url });
