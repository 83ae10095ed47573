/**
 * The bad-input sweep: every operation of the served OpenAPI document, fed hostile input that is
 * GENERATED from the document's own schemas (fast-check), field by field — every string, number,
 * array and object field of every body, every query parameter and every path segment, including
 * the operations that need no credential. Whatever the value, the answer is never a 5xx: a
 * failure prints the request that reproduces it (method, URL, credential kind, body).
 *
 * Hostile classes: NUL and other control characters, unpaired UTF-16 surrogates, very long
 * strings (at and past maxLength, and far past), look-alike, right-to-left and zero-width
 * characters, `__proto__`/`constructor` keys and values, deep nesting, huge arrays, numbers at
 * and past their bounds (and non-integers, huge and tiny), and values of the wrong type.
 *
 * The normal run takes one pinned sample of every class for every field (deterministic; a few
 * tens of seconds). `npm run fuzz` keeps drawing random samples until FUZZ_SECONDS (default 300)
 * have passed; FUZZ_SEED picks the seed (printed with any failure).
 */
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { useSuite, seedTenant } from '../support/suite';
import { db } from '@/lib/db';
import { MAX_BODY_BYTES } from '@/lib/http/body';

const FUZZ = process.env.FUZZ === '1';
const SEED = Number(process.env.FUZZ_SEED ?? 20261123);
const FUZZ_SECONDS = Number(process.env.FUZZ_SECONDS ?? 300);
const CONCURRENCY = 4;
/** Node's HTTP parser refuses request lines and headers over 16 KB (431) before any app code runs: keep URLs under it. */
const MAX_URL_PART = 6_000;

const suite = useSuite();

type Schema = {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minItems?: number;
  maxItems?: number;
  default?: unknown;
  additionalProperties?: Schema | boolean;
};
type Operation = {
  security: Record<string, unknown>[];
  requestBody?: { content: Record<string, { schema: Schema }> };
  parameters: { name: string; in: string; required?: boolean; schema: Schema }[];
};
type Credential = { key?: string; providerKey?: string; bearer?: string };

let doc: { paths: Record<string, Record<string, Operation>> };
const world = {
  tenantKey: '',
  providerKey: '',
  tenantId: '', // the main tenant (tenant-key operations)
  spareTenantId: '', // provider operations on /provider/tenants/{id} act on this one (they may suspend it)
  roomId: '',
  participantId: '',
  waitingParticipantId: '',
  pollId: '',
  optionId: '',
  questionId: '',
  callId: '',
  breakoutId: '',
  deliveryId: '',
  participantTokens: [] as string[],
};
let tokenTurn = 0;
/** Stands for "the next participant token of the pool": each participant has its own rate budget. */
const PARTICIPANT = '<participant>';

beforeAll(async () => {
  const t = await seedTenant({ plan: 'enterprise', entitlementOverrides: { apiRequestsPerSecond: 100_000 } });
  const spare = await seedTenant({ providerId: t.provider.id, plan: 'enterprise' });
  Object.assign(world, {
    tenantKey: t.key,
    providerKey: t.providerKey!,
    tenantId: t.tenant.id,
    spareTenantId: spare.tenant.id,
  });
  const api = (method: string, path: string, body?: unknown) => suite.api(method, path, { key: t.key, body });
  const room = (await api('POST', '/api/v1/rooms', { createdByExternalId: 'u', enableWaitingRoom: true })).body;
  world.roomId = room.id;
  // Participant tokens in a pool: each participant has its own rate budget.
  for (let i = 0; i < 12; i++) {
    const joined = (
      await api('POST', `/api/v1/rooms/${room.id}/join`, {
        externalUserId: `host${i}`,
        displayName: `Host ${i}`,
        role: 'HOST',
      })
    ).body;
    world.participantTokens.push(joined.token);
    if (i === 0) world.participantId = joined.participant.id;
  }
  world.waitingParticipantId = (
    await api('POST', `/api/v1/rooms/${room.id}/join`, { externalUserId: 'guest', displayName: 'Guest' })
  ).body.participant.id;
  const poll = (
    await api('POST', '/api/v1/polls', {
      roomId: room.id,
      createdByExternalId: 'host0',
      question: 'Q?',
      options: ['a', 'b'],
      status: 'OPEN',
    })
  ).body;
  world.pollId = poll.id;
  world.optionId = poll.options[0].id;
  world.questionId = (
    await api('POST', '/api/v1/questions', { roomId: room.id, text: 'Why?', askerExternalId: 'host0' })
  ).body.id;
  world.callId = (await api('POST', '/api/v1/calls', { callerExternalId: 'c', callerDisplayName: 'C' })).body.id;
  world.breakoutId = (
    await api('POST', `/api/v1/rooms/${room.id}/breakouts`, { name: 'B', createdByExternalId: 'host0' })
  ).body.id;
  world.deliveryId = (await db().webhookDelivery.findFirst({ where: { tenantId: t.tenant.id } }))?.id ?? 'no-delivery';
  doc = (await suite.api('GET', '/api/v1/openapi.json')).body;
}, 60_000);

// ───────────────────────── credentials and path ids ─────────────────────────

function schemeOf(op: Operation) {
  return Object.keys(op.security?.[0] ?? {})[0] ?? 'none';
}

/** A working credential for the operation. Key rotation and revocation get a key of their own, so the sweep keeps its own. */
async function credentialFor(template: string, op: Operation): Promise<{ cred: Credential; kind: string }> {
  const scheme = schemeOf(op);
  if (scheme === 'apiKey') {
    if (/\/tenant\/keys\/rotate$/.test(template)) {
      const fresh = await suite.api('POST', `/api/v1/provider/tenants/${world.tenantId}/api-keys`, {
        providerKey: world.providerKey,
        body: { name: 'sweep' },
      });
      return { cred: { key: fresh.body.plainTextKey }, kind: 'a fresh tenant key' };
    }
    return { cred: { key: world.tenantKey }, kind: 'the tenant key' };
  }
  if (scheme === 'providerKey') return { cred: { providerKey: world.providerKey }, kind: 'the provider key' };
  if (scheme === 'participantToken') return { cred: { bearer: PARTICIPANT }, kind: 'a HOST participant token' };
  return { cred: {}, kind: 'no credential' };
}

/** Real ids for path parameters (so the body reaches the domain), by the segment before them. */
async function pathIds(template: string): Promise<Record<string, string>> {
  const ids: Record<string, string> = {};
  const segments = template.split('/');
  for (let i = 0; i < segments.length; i++) {
    const m = /^\{(\w+)\}$/.exec(segments[i]);
    if (!m) continue;
    const before = segments[i - 1];
    const id =
      before === 'rooms' || before === 'status'
        ? world.roomId
        : before === 'participants' || before === 'waiting'
          ? world.waitingParticipantId
          : before === 'polls' || (before === 'public' && segments[i - 2] === 'polls')
            ? world.pollId
            : before === 'questions' || (before === 'public' && segments[i - 2] === 'questions')
              ? world.questionId
              : before === 'calls'
                ? world.callId
                : before === 'breakouts'
                  ? world.breakoutId
                  : before === 'tenants'
                    ? world.spareTenantId
                    : before === 'deliveries'
                      ? world.deliveryId
                      : before === 'api-keys'
                        ? ((
                            await db().apiKey.findFirst({
                              where: { tenantId: world.spareTenantId, revokedAt: null },
                              orderBy: { createdAt: 'desc' },
                            })
                          )?.id ?? 'no-key')
                        : 'unknown-id-000';
    ids[m[1]] = id;
  }
  return ids;
}

// ───────────────────────── valid values from a schema ─────────────────────────

function nonNull(schema: Schema): Schema {
  const branches = schema.anyOf ?? schema.oneOf;
  if (!branches) return schema;
  return nonNull(branches.find((b) => b.type !== 'null') ?? branches[0]);
}

function validValue(schema: Schema, name: string): unknown {
  const s = nonNull(schema);
  if (s.const !== undefined) return s.const;
  if (s.enum) return s.enum[0];
  const type = Array.isArray(s.type) ? s.type.find((t) => t !== 'null') : s.type;
  switch (type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const key of s.required ?? []) out[key] = validValue(s.properties?.[key] ?? {}, key);
      return out;
    }
    case 'array': {
      if (name === 'optionIds') return [world.optionId];
      return Array.from({ length: s.minItems ?? 0 }, (_, i) => validValue(s.items ?? {}, `${name}.${i}`));
    }
    case 'integer':
    case 'number':
      return s.minimum ?? (s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + 1 : 1);
    case 'boolean':
      return false;
    case 'string': {
      if (s.format === 'date-time') return new Date(Date.now() + 3_600_000).toISOString();
      if (s.format === 'uri' || s.format === 'url' || /url$/i.test(name)) return 'https://example.com/hook';
      if (s.format === 'email') return 'someone@example.com';
      if (name === 'roomId') return world.roomId;
      if (name === 'participantId') return world.participantId;
      if (/ExternalId$|ExternalUserId$/.test(name)) return 'host0';
      return 'x'.repeat(Math.max(1, s.minLength ?? 1));
    }
    default:
      return 'x';
  }
}

// ───────────────────────── hostile values (fast-check) ─────────────────────────

const CONTROL = [
  ...Array.from({ length: 32 }, (_, i) => String.fromCharCode(i)),
  '\u007f',
  '\u0085',
  '\u2028',
  '\u2029',
  '\ufeff',
  '\ufffe',
  '\uffff',
];
const LOOK_ALIKES = [
  'аdmin',
  'ΑΡΙ',
  'ｆｕｌｌｗｉｄｔｈ',
  'ﬁle',
  'İı',
  'e\u0301\u0301\u0301',
  'Z̷̡̢̛̛̯̰͈͓̺̦̻͖͍̭̳̯͍̫̤̤̘̯̲̘̦̓̅̌̍̋̽̅̈́͆̽̚͝a',
  '🧪👩‍👩‍👧‍👦🏳️‍🌈',
  '\u202eevil.exe',
  '\u200bzero\u200dwidth\u2060',
  '\u0600\u061c\u200f',
  'ﷺ',
];
const PROTO = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', '__defineGetter__'];
const INJECTION = [
  "' OR 1=1 --",
  '"; DROP TABLE "Room"; --',
  '${jndi:ldap://x}',
  '{{7*7}}',
  '<script>alert(1)</script>',
  '../../../../etc/passwd',
  '%00',
  '%s%n%x',
  '\\u0000',
  'NaN',
  'null',
  'undefined',
];

const withInserted = (chars: fc.Arbitrary<string>) =>
  fc.tuple(fc.string({ maxLength: 20 }), chars, fc.string({ maxLength: 20 })).map(([a, c, b]) => `${a}${c}${b}`);

function stringClasses(s: Schema): Record<string, fc.Arbitrary<unknown>> {
  const max = s.maxLength ?? 200;
  return {
    NUL: withInserted(fc.constant('\u0000')),
    'control characters': withInserted(
      fc.array(fc.constantFrom(...CONTROL), { minLength: 1, maxLength: 8 }).map((a) => a.join('')),
    ),
    'unpaired surrogate': withInserted(fc.constantFrom('\ud800', '\udbff', '\udc00', '\udfff', '\ud83d', 'a\ude00b')),
    'very long': fc
      .constantFrom(max, max + 1, 10_000, 20_000)
      .chain((n) => fc.constantFrom('x', '€', '𝕏').map((c) => c.repeat(n))),
    'look-alike, RTL, zero-width': fc.constantFrom(...LOOK_ALIKES),
    '__proto__ as a value': fc.constantFrom(...PROTO),
    'injection-looking': fc.constantFrom(...INJECTION),
    'wrong type': fc.constantFrom<unknown>(null, true, 0, -1, 1e308, [], {}, [[]], { a: {} }, ''),
  };
}

function numberClasses(s: Schema): Record<string, fc.Arbitrary<unknown>> {
  const lo = s.minimum ?? s.exclusiveMinimum ?? 0;
  const hi = s.maximum ?? s.exclusiveMaximum ?? 1_000_000;
  return {
    'at and past bounds': fc.constantFrom(lo, lo - 1, hi, hi + 1, 0, -0, -1),
    'huge and tiny': fc.constantFrom(2 ** 31, 2 ** 53 + 1, 1e308, -1e308, Number.MIN_VALUE, -Number.MAX_SAFE_INTEGER),
    'not an integer': fc
      .double({ noNaN: true, noDefaultInfinity: true, min: -1e6, max: 1e6 })
      .filter((n) => !Number.isInteger(n)),
    'wrong type': fc.constantFrom<unknown>('1', '', null, true, [], {}, '1e3', ' 1 '),
  };
}

/** Deep nesting as a parsed value (JSON.stringify handles a few thousand levels). */
const nest = (depth: number, leaf: unknown = 1): unknown => {
  let v: unknown = leaf;
  for (let i = 0; i < depth; i++) v = i % 2 ? [v] : { a: v };
  return v;
};
const protoObject = (key: string) =>
  JSON.parse(`{"${key}":{"polluted":true,"isAdmin":true},"x":1}`) as Record<string, unknown>;

function arrayClasses(s: Schema, name: string): Record<string, fc.Arbitrary<unknown>> {
  const item = s.items ?? {};
  const max = s.maxItems ?? 100;
  return {
    'huge array': fc
      .constantFrom(max + 1, 5_000)
      .map((n) => Array.from({ length: n }, (_, i) => validValue(item, `${name}.${i}`))),
    'hostile items': fc.array(fc.oneof(...Object.values(stringClasses({ maxLength: 50 }))), {
      minLength: 1,
      maxLength: 5,
    }),
    'nested arrays': fc.integer({ min: 40, max: 2_000 }).map((d) => [nest(d)]),
    'wrong type': fc.constantFrom<unknown>('a', 1, null, {}, true),
  };
}

function objectClasses(): Record<string, fc.Arbitrary<unknown>> {
  return {
    'deep nesting': fc.constantFrom(9, 33, 500, 2_200).map((d) => ({ deep: nest(d) })),
    '__proto__ / constructor keys': fc.constantFrom(...PROTO).map(protoObject),
    'many keys': fc
      .constantFrom(201, 5_000)
      .map((n) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, i]))),
    'hostile keys': fc
      .oneof(...Object.values(stringClasses({ maxLength: 300 })).slice(0, 5))
      .map((k) => ({ [String(k)]: 1 })),
    'wrong type': fc.constantFrom<unknown>('a', 1, null, [], true),
  };
}

function classesFor(schema: Schema, name: string): Record<string, fc.Arbitrary<unknown>> {
  const s = nonNull(schema);
  const type = Array.isArray(s.type) ? s.type.find((t) => t !== 'null') : s.type;
  if (type === 'integer' || type === 'number') return numberClasses(s);
  if (type === 'array') return arrayClasses(s, name);
  if (type === 'object') return objectClasses();
  if (type === 'boolean') return { 'wrong type': fc.constantFrom<unknown>('true', 1, 0, null, [], {}, '\u0000') };
  return stringClasses(s); // strings, enums, formats, and anything unknown
}

/** Every field of a body schema, nested ones included, as a path of keys. */
function fieldsOf(schema: Schema, prefix: string[] = [], depth = 0): { path: string[]; schema: Schema }[] {
  const s = nonNull(schema);
  const out: { path: string[]; schema: Schema }[] = [];
  for (const [key, child] of Object.entries(s.properties ?? {})) {
    out.push({ path: [...prefix, key], schema: child });
    const c = nonNull(child);
    if (depth < 3 && c.properties) out.push(...fieldsOf(c, [...prefix, key], depth + 1));
  }
  return out;
}

function setPath(base: Record<string, unknown>, path: string[], value: unknown): Record<string, unknown> {
  const copy = structuredClone(base);
  let cursor = copy;
  for (const key of path.slice(0, -1)) {
    if (!cursor[key] || typeof cursor[key] !== 'object') cursor[key] = {};
    cursor = cursor[key] as Record<string, unknown>;
  }
  cursor[path[path.length - 1]] = value;
  return copy;
}

/** Query and path values travel percent-encoded; a lone surrogate cannot, so it becomes its raw UTF-8 bytes' escapes. */
function encode(value: unknown): string {
  let text = typeof value === 'string' ? value : (JSON.stringify(value) ?? '');
  // Cut before encoding (never inside an escape), so the URL stays under Node's 16 KB header limit.
  const encodedLength = (t: string) =>
    encodeURIComponent(
      t.replace(/[\ud800-\udbff][\udc00-\udfff]|[\ud800-\udfff]/g, (m) => (m.length === 2 ? m : '\ufffd')),
    ).length;
  while (text.length > 0 && encodedLength(text) > MAX_URL_PART) text = text.slice(0, Math.floor(text.length * 0.8));
  try {
    return encodeURIComponent(text);
  } catch {
    return (
      text
        .replace(/[\ud800-\udfff]/g, '\ufffd')
        .split('')
        .map((c) => encodeURIComponent(c))
        .join('') + '%ED%A0%80'
    );
  }
}

// ───────────────────────── the sweep ─────────────────────────

interface Probe {
  method: string;
  url: string;
  credentialKind: string;
  cred: Credential;
  body?: string;
  label: string;
}

const describeProbe = (p: Probe, status: number, text: string) =>
  [
    `${p.method} ${p.url.length > 400 ? `${p.url.slice(0, 400)}… (${p.url.length} chars)` : p.url}  [${p.label}] → ${status}`,
    `  credential: ${p.credentialKind}`,
    p.body !== undefined
      ? `  content-type: application/json\n  body (${p.body.length} chars): ${p.body.length > 2_000 ? `${p.body.slice(0, 2_000)}…` : p.body}`
      : '',
    `  answer: ${text.slice(0, 300)}`,
    `  reproduce with FUZZ_SEED=${SEED}`,
  ]
    .filter(Boolean)
    .join('\n');

async function send(p: Probe) {
  for (let attempt = 0; ; attempt++) {
    let res;
    try {
      const cred =
        p.cred.bearer === PARTICIPANT
          ? { bearer: world.participantTokens[tokenTurn++ % world.participantTokens.length] }
          : p.cred;
      res = await suite.api(p.method, p.url, {
        ...cred,
        ...(p.body !== undefined ? { rawBody: p.body, headers: { 'content-type': 'application/json' } } : {}),
      });
    } catch (err) {
      // An idle keep-alive socket the server closed as it was reused: the request never arrived. Once more.
      if (attempt < 1) continue;
      return {
        status: 599,
        text: `connection failed: ${(err as Error).message} ${String((err as { cause?: unknown }).cause ?? '')}`,
        body: null,
      };
    }
    // A rate limit is a correct answer, but the probe did not reach the field: wait and send it again.
    if (res.status === 429 && attempt < 3) {
      await new Promise((r) => setTimeout(r, 1_050));
      continue;
    }
    return res;
  }
}

/** The probes for one operation: one per (field, hostile class) sample. */
async function probesFor(
  template: string,
  method: string,
  op: Operation,
  sample: (arb: fc.Arbitrary<unknown>, field: string, cls: string) => unknown[],
): Promise<Probe[]> {
  const M = method.toUpperCase();
  const probes: Probe[] = [];
  const ids = await pathIds(template);
  const path = (overrides: Record<string, string> = {}) =>
    template.replace(/\{(\w+)\}/g, (_, n: string) => overrides[n] ?? encodeURIComponent(ids[n]));
  const { cred, kind } = await credentialFor(template, op);
  const bodySchema = op.requestBody?.content['application/json']?.schema;
  const base = bodySchema ? (validValue(bodySchema, 'body') as Record<string, unknown>) : undefined;
  const validQuery = Object.fromEntries(
    op.parameters
      .filter((p) => p.in === 'query' && p.schema && p.required)
      .map((p) => [p.name, String(validValue(p.schema, p.name))]),
  );
  const qs = (params: Record<string, string>) => {
    const entries = Object.entries(params);
    return entries.length ? `?${entries.map(([k, v]) => `${encodeURIComponent(k)}=${v}`).join('&')}` : '';
  };
  const encodedValidQuery = Object.fromEntries(Object.entries(validQuery).map(([k, v]) => [k, encodeURIComponent(v)]));

  // Body fields.
  if (base && bodySchema) {
    for (const field of fieldsOf(bodySchema)) {
      for (const [cls, arb] of Object.entries(classesFor(field.schema, field.path.join('.')))) {
        for (const value of sample(arb, field.path.join('.'), cls)) {
          probes.push({
            method: M,
            url: path() + qs(encodedValidQuery),
            credentialKind: kind,
            cred,
            body: JSON.stringify(setPath(base, field.path, value)),
            label: `body ${field.path.join('.')}: ${cls}`,
          });
        }
      }
    }
    // The body as a whole: hostile objects at the top.
    for (const [cls, arb] of Object.entries(objectClasses())) {
      for (const value of sample(arb, 'body', cls)) {
        const whole =
          value && typeof value === 'object' && !Array.isArray(value) ? { ...base, ...(value as object) } : value;
        probes.push({
          method: M,
          url: path() + qs(encodedValidQuery),
          credentialKind: kind,
          cred,
          body: JSON.stringify(whole),
          label: `body: ${cls}`,
        });
      }
    }
  }
  // Query parameters.
  for (const param of op.parameters.filter((p) => p.in === 'query')) {
    const classes = {
      ...classesFor(param.schema ?? {}, param.name),
      ...stringClasses({ maxLength: param.schema?.maxLength ?? 200 }),
    };
    for (const [cls, arb] of Object.entries(classes)) {
      for (const value of sample(arb, `?${param.name}`, cls)) {
        const url = path() + qs({ ...encodedValidQuery, [param.name]: encode(value) });
        probes.push({
          method: M,
          url,
          credentialKind: kind,
          cred,
          body: base ? JSON.stringify(base) : undefined,
          label: `query ${param.name}: ${cls}`,
        });
      }
    }
    probes.push({
      method: M,
      url: path() + qs({ ...encodedValidQuery, [param.name]: '1' }) + `&${encodeURIComponent(param.name)}=2`,
      credentialKind: kind,
      cred,
      body: base ? JSON.stringify(base) : undefined,
      label: `query ${param.name}: repeated`,
    });
    probes.push({
      method: M,
      url: path() + qs({ ...encodedValidQuery, [param.name]: '%ZZ%00%ED%A0%80' }),
      credentialKind: kind,
      cred,
      body: base ? JSON.stringify(base) : undefined,
      label: `query ${param.name}: malformed escapes`,
    });
  }
  // Path segments.
  for (const name of Object.keys(ids)) {
    const classes = stringClasses({ maxLength: 64 });
    delete (classes as Record<string, unknown>)['wrong type'];
    for (const [cls, arb] of Object.entries(classes)) {
      for (const value of sample(arb, `{${name}}`, cls)) {
        if (typeof value !== 'string' || /[\ud800-\udfff]/.test(value) || value === '.' || value === '..') continue;
        probes.push({
          method: M,
          url: path({ [name]: encode(value) }) + qs(encodedValidQuery),
          credentialKind: kind,
          cred,
          body: base ? JSON.stringify(base) : undefined,
          label: `path {${name}}: ${cls}`,
        });
      }
    }
  }
  return probes;
}

async function runProbes(all: Probe[], problems: string[]) {
  // Bodies over the 64 KB cap only reach the 413 check (the classic cases below cover it); the
  // server answers before reading them, so they would only cost time.
  const probes = all.filter((p) => p.body === undefined || Buffer.byteLength(p.body) <= MAX_BODY_BYTES);
  let next = 0;
  const worker = async () => {
    while (next < probes.length) {
      const p = probes[next++];
      const res = await send(p);
      if (res.status >= 500) problems.push(describeProbe(p, res.status, res.text));
      else if (res.status >= 400 && !res.body?.error?.code)
        problems.push(describeProbe(p, res.status, `(no error envelope) ${res.text}`));
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return probes.length;
}

function operations() {
  return Object.entries(doc.paths).flatMap(([template, ops]) =>
    Object.entries(ops).map(([method, op]) => ({ template, method, op })),
  );
}

describe('generated hostile input over the OpenAPI document', () => {
  it(
    'no value in any body field, query parameter or path segment is ever answered with a 5xx',
    async () => {
      const problems: string[] = [];
      let sent = 0;
      let round = 0;
      const started = Date.now();
      const ops = operations();
      expect(ops.length).toBeGreaterThan(90);
      expect(ops.some(({ op }) => schemeOf(op) === 'none')).toBe(true);
      do {
        // Round 0: one pinned sample of every class for every field. Fuzz rounds: fresh random samples.
        const seed = SEED + round;
        let n = 0;
        const sample = (arb: fc.Arbitrary<unknown>) => fc.sample(arb, { numRuns: 1, seed: seed + n++ });
        for (const { template, method, op } of ops) {
          const t0 = Date.now();
          const probes = await probesFor(template, method, op, sample);
          sent += await runProbes(probes, problems);
          if (process.env.FUZZ_TIMING)
            console.log(`${Date.now() - t0} ms  ${probes.length} probes  ${method.toUpperCase()} ${template}`);
          if (problems.length > 20) break;
        }
        round++;
      } while (FUZZ && problems.length === 0 && Date.now() - started < FUZZ_SECONDS * 1000);
      console.log(
        `bad-input sweep: ${sent} generated requests over ${ops.length} operations in ${round} round(s), ${Math.round((Date.now() - started) / 1000)} s`,
      );
      expect(problems, `5xx answers (or 4xx without the error envelope):\n\n${problems.join('\n\n')}`).toEqual([]);
      expect(sent).toBeGreaterThan(2_000);
    },
    FUZZ ? (FUZZ_SECONDS + 300) * 1000 : 240_000,
  );
});

// ───────────────────────── the hand-picked cases (kept) ─────────────────────────

describe('classic bad requests over every operation', () => {
  it('wrong credential kinds, malformed JSON, wrong content types, oversize bodies, unknown ids, bad query values: a 4xx envelope, nothing written', async () => {
    const counts = () => {
      const c = db();
      return Promise.all([
        c.room.count(),
        c.participant.count(),
        c.call.count(),
        c.poll.count(),
        c.question.count(),
        c.apiKey.count(),
        c.tenant.count(),
        c.breakout.count(),
      ]);
    };
    const before = await counts();
    const problems: string[] = [];
    let checked = 0;
    for (const { template, method, op } of operations()) {
      const M = method.toUpperCase();
      const scheme = schemeOf(op);
      const good: Credential =
        scheme === 'apiKey'
          ? { key: world.tenantKey }
          : scheme === 'providerKey'
            ? { providerKey: world.providerKey }
            : scheme === 'participantToken'
              ? { bearer: world.participantTokens[checked % world.participantTokens.length] }
              : {};
      const wrong: Credential | null =
        scheme === 'apiKey'
          ? { providerKey: world.providerKey }
          : scheme === 'providerKey'
            ? { key: world.tenantKey }
            : scheme === 'participantToken'
              ? { key: world.tenantKey }
              : null;
      const path = template.replace(/\{(\w+)\}/g, 'unknown-id-000');
      const cases: [string, Parameters<typeof suite.api>[2], number[]][] = [];
      if (wrong)
        cases.push([
          'wrong credential kind',
          { ...wrong, body: M === 'GET' || M === 'DELETE' ? undefined : {} },
          [401],
        ]);
      if (op.requestBody) {
        cases.push([
          'malformed JSON',
          { ...good, rawBody: '{"oops":', headers: { 'content-type': 'application/json' } },
          [400],
        ]);
        cases.push([
          'wrong content type',
          { ...good, rawBody: 'a=b', headers: { 'content-type': 'application/x-www-form-urlencoded' } },
          [415],
        ]);
        cases.push([
          'oversize body',
          {
            ...good,
            rawBody: JSON.stringify({ x: 'y'.repeat(70_000) }),
            headers: { 'content-type': 'application/json' },
          },
          [413],
        ]);
        cases.push(['wrong-typed body', { ...good, body: [1, 2, 3] }, [400]]);
      }
      if (template.includes('{'))
        cases.push(['unknown ids', { ...good, body: M === 'GET' || M === 'DELETE' ? undefined : {} }, [400, 404]]);
      if (op.parameters.some((p) => p.name === 'limit')) cases.push(['bad query', { ...good }, [400]]);
      for (const [label, opts, allowed] of cases) {
        const url = label === 'bad query' ? `${path}?limit=abc` : path;
        let res = await suite.api(M, url, opts);
        if (res.status === 429) {
          await new Promise((r) => setTimeout(r, 1_050));
          res = await suite.api(M, url, opts);
        }
        checked++;
        const envelope = res.body?.error?.code && res.body.error.requestId;
        if (!allowed.includes(res.status) || !envelope)
          problems.push(`${M} ${template} [${label}] → ${res.status} ${res.text.slice(0, 120)}`);
      }
    }
    expect(problems).toEqual([]);
    expect(checked).toBeGreaterThan(250);
    expect(await counts()).toEqual(before);
  }, 120_000);
});
