#!/usr/bin/env node
// A stand-in for Prisma's native `schema-engine` binary, which cannot be downloaded on machines
// without internet access. The stock Prisma CLI starts this script (PRISMA_SCHEMA_ENGINE_BINARY,
// set by prisma.config.ts) exactly as it would start the binary; the script speaks the binary's
// protocol and delegates every method to the same engine compiled to WebAssembly
// (@prisma/schema-engine-wasm), with PostgreSQL reached through @prisma/adapter-pg.
//
// Protocol (as the CLI expects it):
//   schema-engine [--datamodels <file>]... [--datasource '<json>'] [cli <command>]
//   - RPC mode: JSON-RPC 2.0, one JSON object per line on stdin/stdout. The engine may call the
//     CLI back with a `print` request (used by `migrate diff`).
//   - `cli can-connect-to-database | create-database | drop-database`: one shot, exit code.
//   - stderr: the CLI drops the first line and parses the rest as JSON log lines.
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { PrismaPg } from '@prisma/adapter-pg';
import { bindMigrationAwareSqlAdapterFactory, ColumnTypeEnum } from '@prisma/driver-adapter-utils';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const wasmDir = path.join(root, 'node_modules/@prisma/schema-engine-wasm');

const logLine = (level, message, extra = {}) =>
  process.stderr.write(JSON.stringify({ level, target: 'schema_engine::logger', fields: { message, ...extra } }) + '\n');
process.stderr.write('schema-engine (wasm bridge)\n'); // the CLI discards the first stderr line

// ── arguments ──
const args = process.argv.slice(2);
const datamodelFiles = [];
let datasource = {};
let cliCommand = null;
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--datamodels') datamodelFiles.push(args[++i]);
  else if (args[i] === '--datasource') datasource = JSON.parse(args[++i]);
  else if (args[i] === 'cli') cliCommand = args[++i];
  else if (args[i] === '--version' || args[i] === '-V') {
    process.stdout.write('schema-engine-cli wasm-bridge\n');
    process.exit(0);
  } else if (args[i].startsWith('--')) i++; // --enabled-preview-features, --extension-types: not needed here
}

// ── PostgreSQL connections ──
// pg ignores a `database` override when a connectionString is given, so connections are made
// from explicit fields.
function pgConfig(url, database) {
  const u = new URL(url);
  return {
    host: decodeURIComponent(u.hostname) || '127.0.0.1',
    port: Number(u.port || 5432),
    user: decodeURIComponent(u.username) || process.env.USER || 'postgres',
    password: u.password ? decodeURIComponent(u.password) : undefined,
    database: database ?? (decodeURIComponent(u.pathname.slice(1)) || 'postgres'),
    ssl: /sslmode=(require|verify)/.test(u.search) ? { rejectUnauthorized: false } : undefined,
  };
}

async function withAdminClient(url, fn) {
  const client = new pg.Client(pgConfig(url, 'postgres'));
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

// The adapter cannot deserialize PostgreSQL's internal "char" type (OID 18), which the engine's
// catalog queries return. Report such columns as the adapter's Character type.
const PG_CHAR_OID = 18;
const charColumns = new WeakMap();
function patchCharColumns(adapter) {
  const queryable = Object.getPrototypeOf(Object.getPrototypeOf(adapter));
  if (queryable.__charPatched) return;
  queryable.__charPatched = true;
  const performIO = queryable.performIO;
  const queryRaw = queryable.queryRaw;
  queryable.performIO = async function (query) {
    const result = await performIO.call(this, query);
    const indexes = [];
    result.fields?.forEach((field, i) => {
      if (field.dataTypeID === PG_CHAR_OID) {
        indexes.push(i);
        field.dataTypeID = 25; // text, so the adapter's mapping accepts it; fixed up below
      }
    });
    if (indexes.length) charColumns.set(query, indexes);
    return result;
  };
  queryable.queryRaw = async function (query) {
    const result = await queryRaw.call(this, query);
    for (const i of charColumns.get(query) ?? []) result.columnTypes[i] = ColumnTypeEnum.Character;
    return result;
  };
}

// The adapter runs a migration script by splitting it on ';', which breaks any statement with a
// ';' inside it (a plpgsql function body, a string literal). PostgreSQL's simple query protocol
// takes the whole script as one message and runs it as one implicit transaction: send it so.
function patchExecuteScript(adapter) {
  const proto = Object.getPrototypeOf(adapter);
  if (proto.__scriptPatched) return;
  proto.__scriptPatched = true;
  proto.executeScript = async function (script) {
    try {
      await this.client.query(script);
    } catch (error) {
      this.onError(error);
    }
  };
}

function patchAdapter(adapter) {
  patchCharColumns(adapter);
  patchExecuteScript(adapter);
}

class AdapterFactory {
  provider = 'postgres';
  adapterName = '@prisma/adapter-pg';
  constructor(url, shadowUrl) {
    this.url = url;
    this.shadowUrl = shadowUrl;
  }
  async connect() {
    const adapter = await new PrismaPg(pgConfig(this.url)).connect();
    patchAdapter(adapter);
    return adapter;
  }
  // A configured shadow database is reused, so wipe it first; otherwise create a temporary one
  // and drop it after the adapter's pool has been closed (dropping first would fail).
  async connectToShadowDb() {
    if (this.shadowUrl) {
      const client = new pg.Client(pgConfig(this.shadowUrl));
      await client.connect();
      await client.query('DROP SCHEMA IF EXISTS public CASCADE; CREATE SCHEMA public;');
      await client.end();
      const adapter = await new PrismaPg(pgConfig(this.shadowUrl)).connect();
      patchAdapter(adapter);
      return adapter;
    }
    const name = `prisma_shadow_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
    await withAdminClient(this.url, (c) => c.query(`CREATE DATABASE "${name}"`));
    const adapter = await new PrismaPg(pgConfig(this.url, name)).connect();
    patchAdapter(adapter);
    const dispose = adapter.dispose.bind(adapter);
    adapter.dispose = async () => {
      await dispose();
      await withAdminClient(this.url, (c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
    };
    return adapter;
  }
}

// ── the wasm engine ──
// The engine's panic hook hands the Rust panic message to this global (the CLI defines it for
// its own wasm modules) and then traps; keep the message so it can be reported.
let panicMessage = null;
globalThis.PRISMA_WASM_PANIC_REGISTRY = { set_message: (message) => (panicMessage = message) };

async function loadEngine() {
  const bg = await import(path.join(wasmDir, 'schema_engine_bg.js'));
  const { instance } = await WebAssembly.instantiate(readFileSync(path.join(wasmDir, 'schema_engine_bg.wasm')), {
    './schema_engine_bg.js': bg,
  });
  bg.__wbg_set_wasm(instance.exports);
  instance.exports.__wbindgen_start();
  // Without any schema file the engine panics in some commands (migrate diff, db execute).
  const datamodels = datamodelFiles.length
    ? datamodelFiles.map((f) => [f, readFileSync(f, 'utf8')])
    : [['placeholder.prisma', 'datasource db {\n  provider = "postgresql"\n}\n']];
  const url = datasource.url ?? 'postgresql://placeholder@127.0.0.1:5432/placeholder';
  const factory = bindMigrationAwareSqlAdapterFactory(new AdapterFactory(url, datasource.shadowDatabaseUrl));
  return bg.SchemaEngine.new({ datamodels }, (line) => process.stderr.write(String(line).trimEnd() + '\n'), factory);
}

const isPanic = (err) => panicMessage !== null || err instanceof WebAssembly.RuntimeError;

function errorMessage(err) {
  if (panicMessage) return panicMessage;
  if (err instanceof Error) return err.message;
  if (typeof err === 'string') return err;
  return err?.message ?? JSON.stringify(err);
}

// ── one-shot commands ──
async function runCli(command) {
  const url = datasource.url;
  const { database } = pgConfig(url);
  try {
    if (command === 'can-connect-to-database') {
      const client = new pg.Client(pgConfig(url));
      await client.connect();
      await client.end();
    } else if (command === 'create-database') {
      await withAdminClient(url, async (c) => {
        const exists = await c.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
        if (exists.rowCount === 0) await c.query(`CREATE DATABASE "${database.replace(/"/g, '""')}"`);
      });
    } else if (command === 'drop-database') {
      await withAdminClient(url, (c) => c.query(`DROP DATABASE IF EXISTS "${database.replace(/"/g, '""')}" WITH (FORCE)`));
    } else {
      throw new Error(`Unsupported command: ${command}`);
    }
    process.exit(0);
  } catch (err) {
    const code = err?.code === '3D000' ? 'P1003' : err?.code === 'ECONNREFUSED' ? 'P1001' : 'P1000';
    logLine('ERROR', errorMessage(err), { error_code: code });
    process.exit(1);
  }
}

// ── RPC mode ──
async function runRpc() {
  const engine = await loadEngine();
  let nextOwnId = 1_000_000; // ids of our own requests to the CLI (print)
  const pendingPrints = new Map();
  const send = (msg) => process.stdout.write(JSON.stringify(msg) + '\n');
  const printToCli = (content) =>
    new Promise((resolve) => {
      const id = nextOwnId++;
      pendingPrints.set(id, resolve);
      send({ jsonrpc: '2.0', id, method: 'print', params: { content } });
    });
  let diagnosed = false;
  let current = null; // the request being answered, for reportCrash

  async function call(method, params) {
    if (typeof engine[method] !== 'function') throw new Error(`Unknown method ${method}`);
    // The wasm engine reaches the shadow database only from devDiagnostic: run it first.
    if ((method === 'createMigration' || method === 'evaluateDataLoss') && !diagnosed && params?.migrationsList) {
      await engine.devDiagnostic({ migrationsList: params.migrationsList });
    }
    if (method === 'devDiagnostic') diagnosed = true;
    let result;
    try {
      result = await engine[method](params ?? {});
    } catch (err) {
      // Applying migrations drops the engine's hold on the shadow database; run the
      // diagnostic again to re-establish it, then retry once.
      if (!/shadow DB must be provided/.test(errorMessage(err)) || !params?.migrationsList) throw err;
      await engine.devDiagnostic({ migrationsList: params.migrationsList });
      result = await engine[method](params);
    }
    if (method === 'diff' && result && typeof result.stdout === 'string') {
      await printToCli(result.stdout);
      return { exitCode: result.exitCode };
    }
    return result === undefined ? {} : result;
  }

  // Requests are answered in order, one at a time, as the native engine does.
  let queue = Promise.resolve();
  const rl = createInterface({ input: process.stdin, crlfDelay: Infinity });
  rl.on('line', (line) => {
    if (!line.trim()) return;
    const msg = JSON.parse(line);
    if (msg.method === undefined && pendingPrints.has(msg.id)) {
      pendingPrints.get(msg.id)();
      pendingPrints.delete(msg.id);
      return;
    }
    queue = queue.then(async () => {
      current = msg.id;
      try {
        send({ jsonrpc: '2.0', id: msg.id, result: await call(msg.method, msg.params) });
      } catch (err) {
        sendError(msg.id, err);
        if (isPanic(err)) process.exit(101); // the wasm instance is unusable after a trap
      }
      current = null;
    });
  });
  rl.on('close', () => queue.finally(() => process.exit(0)));

  function sendError(id, err) {
    const message = errorMessage(err);
    const panic = isPanic(err);
    logLine('ERROR', message);
    // With is_panic the CLI shows `error.message`, otherwise `data.message` (and error_code).
    send({
      jsonrpc: '2.0',
      id,
      error: { code: 4466, message: panic ? message : 'An error happened. Check the data field for details.', data: { is_panic: panic, message, error_code: err?.error_code ?? err?.code, meta: err?.meta } },
    });
  }

  // A panic (or a failed `unwrap_throw`) inside an async engine method is thrown from a
  // microtask, not through the method's promise, which then never settles: answer the pending
  // request with the error and exit, since the wasm instance is unusable after a trap.
  reportCrash = (err) => {
    if (current !== null) sendError(current, err);
    else logLine('ERROR', errorMessage(err));
    process.exit(101); // what a Rust panic exits with; the CLI reports it as a panic
  };
}

let reportCrash = (err) => {
  logLine('ERROR', errorMessage(err));
  process.exit(101);
};
process.on('uncaughtException', (err) => reportCrash(err));
process.on('unhandledRejection', (err) => reportCrash(err));

if (cliCommand) await runCli(cliCommand);
else await runRpc();
