/**
 * The development media server in a process of its own (media-server/main.ts, as `npm start` runs
 * it): a crash shows as that process exiting instead of taking the caller with it.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { until } from './until';

/** Starts it (on a free port unless `port` is given) and resolves once it listens. */
export async function spawnMediaServer({
  apiKey,
  apiSecret,
  port = 0,
  webhookUrls = [],
  v1 = true,
}: {
  apiKey: string;
  apiSecret: string;
  port?: number;
  webhookUrls?: string[];
  /** false: v0 signaling only (DEV_MEDIA_V1=0). */
  v1?: boolean;
}) {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.resolve(import.meta.dirname, '../../media-server/main.ts')],
    {
      env: {
        ...process.env,
        LIVEKIT_API_KEY: apiKey,
        LIVEKIT_API_SECRET: apiSecret,
        DEV_MEDIA_PORT: String(port),
        DEV_MEDIA_WEBHOOK_URLS: webhookUrls.join(','),
        DEV_MEDIA_V1: v1 ? '1' : '0',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  let exited: string | undefined;
  child.stdout!.on('data', (c) => (output += c));
  child.stderr!.on('data', (c) => (output += c));
  child.on('exit', (code, signal) => (exited = `exited with ${code ?? signal}`));
  const url = await until(() => {
    if (exited) throw new Error(`media server ${exited}: ${output}`);
    return / on (ws:\/\/\S+)/.exec(output)?.[1];
  }, 'the media server to listen');
  return {
    apiKey,
    apiSecret,
    url,
    port: Number(new URL(url).port),
    child,
    /** What it printed, stdout and stderr. */
    get output() {
      return output;
    },
    /** How it ended ("exited with 1", "exited with SIGKILL"); undefined while it runs. */
    get exited() {
      return exited;
    },
    /** SIGTERM, and SIGKILL if it has not exited 5 s later. */
    async stop() {
      if (exited) return;
      child.kill('SIGTERM');
      await until(() => exited, 'the media server to stop', 5000).catch(() => child.kill('SIGKILL'));
    },
  };
}
export type MediaServerProcess = Awaited<ReturnType<typeof spawnMediaServer>>;
