/**
 * How the bench measures a server: CPU meters read from /proc, closed-loop runs with autocannon,
 * and open-loop runs at a fixed rate (bench/open-loop.ts in a process of its own).
 */
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import autocannon from 'autocannon';
import { DURATION, root } from './harness';
import type { OpenLoopResult, OpenLoopSpec } from './open-loop';

export interface Row {
  name: string;
  concurrency: number;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
  cpuMsPerReq: number | null;
  total?: number;
  seconds?: number;
  cpuMs?: number | null;
  dbCpuMs?: number | null;
}

const CLOCK_TICK_MS = 1000 / Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim() || 100);

/** CPU ticks (user + system) used so far by each process `match` selects, by pid, read from /proc. */
function cpuTicks(match: (stat: { pgrp: number; comm: string }) => boolean): Map<number, number> | null {
  if (process.platform !== 'linux') return null;
  const ticks = new Map<number, number>();
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      // After "pid (comm) ": state ppid pgrp ... utime(12th) stime(13th), zero-based 11 and 12.
      if (match({ pgrp: Number(fields[2]), comm })) ticks.set(Number(pid), Number(fields[11]) + Number(fields[12]));
    } catch {
      // the process exited meanwhile
    }
  }
  return ticks;
}

/**
 * A CPU meter (ms, user + system) over the processes `match` selects, as process.cpuUsage() would
 * report it inside each: per request it shows a regression even when the machine is shared and
 * throughput is noisy. Counted per process (a process that ends during a run drops out rather
 * than subtracting its whole life's CPU).
 */
function cpuMeter(match: (stat: { pgrp: number; comm: string }) => boolean) {
  const before = cpuTicks(match);
  return () => {
    const after = cpuTicks(match);
    if (!before || !after) return null;
    let ticks = 0;
    for (const [pid, t] of after) ticks += t - (before.get(pid) ?? 0);
    return ticks * CLOCK_TICK_MS;
  };
}

/** The server's CPU: every process in its process group. */
export const serverCpu = (pgid: number | undefined) => cpuMeter((p) => p.pgrp === pgid);
/**
 * The database's CPU: every PostgreSQL process on this machine (the pool's backends live for the
 * whole run; on a shared machine another database's work would count too).
 */
export const databaseCpu = () => cpuMeter((p) => p.comm === 'postgres');

/** A closed-loop run of `concurrency` autocannon clients, with the CPU of the server in process group `group`. */
export async function load(
  name: string,
  url: string,
  concurrency: number,
  makeRequest: () => { method: 'GET' | 'POST'; path: string; body?: string; headers?: Record<string, string> },
  headers: Record<string, string>,
  opts: { group: number | undefined; duration?: number },
): Promise<Row> {
  const duration = opts.duration ?? DURATION;
  const serverMeter = serverCpu(opts.group);
  const databaseMeter = databaseCpu();
  const result = await autocannon({
    url,
    connections: concurrency,
    duration,
    headers: { 'content-type': 'application/json', ...headers },
    requests: [
      {
        setupRequest: (req) => {
          const r = makeRequest();
          return { ...req, ...r, headers: { ...req.headers, ...r.headers } };
        },
      },
    ],
  });
  const cpu = serverMeter();
  const dbCpu = databaseMeter();
  const total = result.requests.total;
  return {
    name,
    concurrency,
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    cpuMsPerReq: cpu !== null && total > 0 ? Math.round((cpu / total) * 100) / 100 : null,
    total,
    seconds: duration,
    cpuMs: cpu,
    dbCpuMs: dbCpu,
  };
}

/** Rounds of one endpoint merged: throughput and CPU over all of them, mean p50, worst p99. */
export function merge(rounds: Row[]): Row {
  const total = rounds.reduce((a, r) => a + (r.total ?? 0), 0);
  const seconds = rounds.reduce((a, r) => a + (r.seconds ?? 0), 0);
  const cpu = rounds.every((r) => r.cpuMs != null) ? rounds.reduce((a, r) => a + r.cpuMs!, 0) : null;
  const dbCpu = rounds.every((r) => r.dbCpuMs != null) ? rounds.reduce((a, r) => a + r.dbCpuMs!, 0) : null;
  return {
    ...rounds[0],
    rps: Math.round(total / seconds),
    p50: Math.round(rounds.reduce((a, r) => a + r.p50, 0) / rounds.length),
    p99: Math.max(...rounds.map((r) => r.p99)),
    errors: rounds.reduce((a, r) => a + r.errors, 0),
    non2xx: rounds.reduce((a, r) => a + r.non2xx, 0),
    cpuMsPerReq: cpu !== null && total > 0 ? Math.round((cpu / total) * 100) / 100 : null,
    total,
    seconds,
    cpuMs: cpu,
    dbCpuMs: dbCpu,
  };
}

export interface OpenLoopRow extends OpenLoopResult {
  name: string;
  rate: number;
  cpuMsPerReq: number | null;
}

/** One open-loop run in its own process (bench/open-loop.ts), with the CPU per request of the server in process group `group`. */
export async function openLoopRun(group: number | undefined, name: string, spec: OpenLoopSpec): Promise<OpenLoopRow> {
  const serverMeter = serverCpu(group);
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(root, 'bench/open-loop.ts'), JSON.stringify(spec)],
    {
      cwd: root,
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  if (code !== 0) throw new Error(`open-loop run ${name} at ${spec.rate}/s failed (exit ${code})`);
  const result = JSON.parse(out.trim().split('\n').at(-1)!) as OpenLoopResult;
  const cpu = serverMeter();
  return {
    ...result,
    name,
    rate: spec.rate,
    cpuMsPerReq: cpu !== null && result.served > 0 ? Math.round((cpu / result.served) * 100) / 100 : null,
  };
}
