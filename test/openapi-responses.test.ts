/**
 * The API reference's success responses against real responses: bodies obtained over HTTP must
 * validate against the JSON Schema the served document gives for that operation (undocumented
 * fields included: objects are closed), and against the zod schema the route declares. And no
 * JSON operation may be documented with a generic object.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { useSuite, seedTenant } from './support/suite';
import type { ApiResponse } from './support/app';
import { startWebhookReceiver, type WebhookReceiver } from './support/webhook-receiver';
import { problems, servedDocument, validatorFor, type JsonSchema } from './support/openapi';
import { operations } from '@/lib/openapi/document';
import { until } from './support/until';

interface Doc {
  paths: Record<
    string,
    Record<string, { responses: Record<string, { content?: Record<string, { schema: JsonSchema }> }> }>
  >;
  components: { schemas: Record<string, JsonSchema> };
}

const suite = useSuite();
let doc: Doc;
let receiver: WebhookReceiver;

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  doc = await servedDocument(suite);
});
afterAll(() => receiver?.close());

/** The documented 2xx of an operation: its status and a validator built from the served JSON Schema. */
function documented(method: string, path: string) {
  const op = doc.paths[path]?.[method.toLowerCase()];
  if (!op) throw new Error(`${method} ${path} is not in the document`);
  const [status, response] = Object.entries(op.responses).find(([s]) => s.startsWith('2'))!;
  const schema = response.content?.['application/json']?.schema;
  if (!schema) throw new Error(`${method} ${path} documents no JSON success body`);
  return {
    status: Number(status),
    validator: validatorFor(schema, doc.components.schemas),
  };
}

/** The zod schema the route itself declares: the source the document is generated from. */
function declared(method: string, path: string): z.ZodType {
  const schema = operations().find((o) => o.method === method && o.path === path)?.handler.description.response;
  if (!schema) throw new Error(`${method} ${path} declares no response schema`);
  return schema;
}

/** Fails unless the real response is exactly what the document (and the route's schema) says. */
function expectDocumented(method: string, path: string, res: ApiResponse) {
  const { status, validator } = documented(method, path);
  expect(res.status, `${method} ${path}: ${res.text.slice(0, 300)}`).toBe(status);
  expect(problems(validator.safeParse(res.body)), `${method} ${path} against the served document`).toEqual([]);
  const parsed = declared(method, path).safeParse(res.body);
  expect(problems(parsed), `${method} ${path} against the route's zod schema`).toEqual([]);
  // zod objects drop unknown keys, so anything undocumented would be missing here.
  expect(parsed.data, `${method} ${path}: fields not in the schema`).toEqual(res.body);
  return res.body;
}

describe('documented success responses', () => {
  it('every JSON operation documents a specific 2xx body; the others name their content types', () => {
    const missing: string[] = [];
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        const name = `${method.toUpperCase()} ${path}`;
        const success = Object.entries(op.responses).filter(([s]) => s.startsWith('2'));
        if (success.length !== 1) {
          missing.push(`${name}: ${success.length} 2xx responses`);
          continue;
        }
        const content = success[0][1].content ?? {};
        if (Object.keys(content).length === 0) missing.push(`${name}: no content`);
        const json = content['application/json']?.schema;
        if (!json) continue;
        const ref = typeof json.$ref === 'string' ? json.$ref : undefined;
        const specific = ref ? doc.components.schemas[ref.replace('#/components/schemas/', '')] : json;
        if (!specific) missing.push(`${name}: dangling ${ref}`);
        else if (!specific.properties && !specific.oneOf && !specific.anyOf)
          missing.push(`${name}: generic ${JSON.stringify(json)}`);
      }
    }
    expect(missing).toEqual([]);
    // Every $ref anywhere in the document resolves.
    const refs = [...JSON.stringify(doc).matchAll(/"\$ref":"#\/components\/schemas\/([^"]+)"/g)].map((m) => m[1]);
    expect(refs.filter((r) => !doc.components.schemas[r])).toEqual([]);
    expect(doc.paths['/api/v1/recordings/{id}/download'].get.responses['200'].content).toHaveProperty(['video/mp4']);
    expect(doc.paths['/api/v1/rooms'].get.responses['200'].content!['application/json'].schema).toEqual({
      $ref: '#/components/schemas/RoomPage',
    });
    expect(doc.components.schemas.Room.additionalProperties).toBe(false);
  });

  it('the check has teeth: an undocumented field, a wrong enum value or a missing field fails', async () => {
    const t = await seedTenant();
    const room = (await suite.api('POST', '/api/v1/rooms', { key: t.key, body: { createdByExternalId: 'host' } })).body;
    const { validator } = documented('POST', '/api/v1/rooms');
    expect(problems(validator.safeParse(room))).toEqual([]);
    expect(validator.safeParse({ ...room, secret: 'leak' }).success).toBe(false);
    expect(validator.safeParse({ ...room, status: 'PAUSED' }).success).toBe(false);
    const { createdAt: _dropped, ...withoutCreatedAt } = room;
    expect(validator.safeParse(withoutCreatedAt).success).toBe(false);
    expect(validator.safeParse({ ...room, createdAt: 'yesterday' }).success).toBe(false);
  });

  it('rooms, participants and join answer exactly as documented', async () => {
    const t = await seedTenant({ plan: 'growth' });
    const room = expectDocumented(
      'POST',
      '/api/v1/rooms',
      await suite.api('POST', '/api/v1/rooms', {
        key: t.key,
        body: { createdByExternalId: 'host-1', name: 'Weekly sync', externalMetadata: { crmId: 42 } },
      }),
    );
    const join = expectDocumented(
      'POST',
      '/api/v1/rooms/{id}/join',
      await suite.api('POST', `/api/v1/rooms/${room.id}/join`, {
        key: t.key,
        body: { externalUserId: 'host-1', displayName: 'Host', role: 'HOST' },
      }),
    );
    expect(join.waitingForApproval).toBe(false);
    await suite.api('POST', `/api/v1/rooms/${room.id}/join`, {
      key: t.key,
      body: { externalUserId: 'guest-1', displayName: 'Guest', externalMetadata: { tier: 'gold' } },
    });

    const got = expectDocumented(
      'GET',
      '/api/v1/rooms/{id}',
      await suite.api('GET', `/api/v1/rooms/${room.id}`, { key: t.key }),
    );
    expect(got.participants).toHaveLength(2);
    expectDocumented(
      'GET',
      '/api/v1/rooms/{id}/participants',
      await suite.api('GET', `/api/v1/rooms/${room.id}/participants`, { key: t.key }),
    );
    expectDocumented('GET', '/api/v1/rooms/{id}/info', await suite.api('GET', `/api/v1/rooms/${room.id}/info`));

    // The waiting-room branch of join: no token, an admission URL.
    const gated = (
      await suite.api('POST', '/api/v1/rooms', {
        key: t.key,
        body: { createdByExternalId: 'host-2', enableWaitingRoom: true },
      })
    ).body;
    const parked = expectDocumented(
      'POST',
      '/api/v1/rooms/{id}/join',
      await suite.api('POST', `/api/v1/rooms/${gated.id}/join`, {
        key: t.key,
        body: { externalUserId: 'late', displayName: 'Late' },
      }),
    );
    expect(parked).toMatchObject({ waitingForApproval: true, token: null });
    expectDocumented(
      'GET',
      '/api/v1/rooms/{id}/participants/{participantId}/admission',
      await suite.api('GET', `/api/v1/rooms/${gated.id}/participants/${parked.participant.id}/admission`, {
        key: t.key,
      }),
    );

    const page = expectDocumented(
      'GET',
      '/api/v1/rooms',
      await suite.api('GET', '/api/v1/rooms?limit=1', { key: t.key }),
    );
    expect(page.nextCursor).toEqual(expect.any(String));
    expectDocumented(
      'POST',
      '/api/v1/rooms/{id}/end',
      await suite.api('POST', `/api/v1/rooms/${room.id}/end`, { key: t.key }),
    );
  });

  it('sessions, attendance, presence and chat answer exactly as documented', async () => {
    const t = await seedTenant({ plan: 'growth' });
    const room = (await suite.api('POST', '/api/v1/rooms', { key: t.key, body: { createdByExternalId: 'host' } })).body;
    const host = (
      await suite.api('POST', `/api/v1/rooms/${room.id}/join`, {
        key: t.key,
        body: { externalUserId: 'host', displayName: 'Host', role: 'HOST' },
      })
    ).body;
    await suite.api('POST', `/api/v1/rooms/${room.id}/join`, {
      key: t.key,
      body: { externalUserId: 'guest', displayName: 'Guest' },
    });
    const at = String(Math.floor(Date.now() / 1000) - 60);
    await suite.media.sendWebhook(`${suite.app.baseUrl}/api/media/webhook`, {
      event: 'participant_joined',
      createdAt: at,
      room: { name: room.mediaRoomName },
      participant: { identity: host.participant.mediaIdentity, sid: 'PA_doc', joinedAt: at },
    });
    const presence = expectDocumented(
      'GET',
      '/api/v1/rooms/{id}/presence',
      await suite.api('GET', `/api/v1/rooms/${room.id}/presence`, { key: t.key }),
    );
    expect(presence.participants).toHaveLength(1);
    expectDocumented('GET', '/api/v1/presence', await suite.api('GET', '/api/v1/presence', { key: t.key }));
    const sent = expectDocumented(
      'POST',
      '/api/v1/chat/messages',
      await suite.api('POST', '/api/v1/chat/messages', {
        bearer: host.token,
        body: { text: 'hi', toExternalUserId: 'guest' },
      }),
    );
    expect(sent.toExternalUserId).toBe('guest');
    expectDocumented(
      'GET',
      '/api/v1/chat/messages',
      await suite.api('GET', '/api/v1/chat/messages', { bearer: host.token }),
    );
    expectDocumented(
      'GET',
      '/api/v1/rooms/{id}/chat',
      await suite.api('GET', `/api/v1/rooms/${room.id}/chat`, { key: t.key }),
    );
    const live = expectDocumented(
      'GET',
      '/api/v1/rooms/{id}/sessions',
      await suite.api('GET', `/api/v1/rooms/${room.id}/sessions`, { key: t.key }),
    );
    expectDocumented(
      'GET',
      '/api/v1/sessions/{id}',
      await suite.api('GET', `/api/v1/sessions/${live.data[0].id}`, { key: t.key }),
    );
    await suite.api('POST', `/api/v1/rooms/${room.id}/end`, { key: t.key });
    const ended = expectDocumented(
      'GET',
      '/api/v1/sessions/{id}',
      await suite.api('GET', `/api/v1/sessions/${live.data[0].id}`, { key: t.key }),
    );
    expect(ended.attendance[0]).toMatchObject({ externalUserId: 'host', connected: false });
    expectDocumented(
      'GET',
      '/api/v1/sessions',
      await suite.api('GET', '/api/v1/sessions?status=ENDED', { key: t.key }),
    );
    expectDocumented(
      'DELETE',
      '/api/v1/rooms/{id}/chat',
      await suite.api('DELETE', `/api/v1/rooms/${room.id}/chat`, { key: t.key }),
    );
  });

  it('tenant, keys, usage and provider views answer exactly as documented', async () => {
    const t = await seedTenant();
    expectDocumented('GET', '/api/v1/tenant', await suite.api('GET', '/api/v1/tenant', { key: t.key }));
    const keys = expectDocumented(
      'GET',
      '/api/v1/tenant/keys',
      await suite.api('GET', '/api/v1/tenant/keys', { key: t.key }),
    );
    expect(keys.data).toHaveLength(1);
    expectDocumented('GET', '/api/v1/tenant/usage', await suite.api('GET', '/api/v1/tenant/usage', { key: t.key }));

    const pk = t.providerKey!;
    expectDocumented(
      'GET',
      '/api/v1/provider/tenants/{id}',
      await suite.api('GET', `/api/v1/provider/tenants/${t.tenant.id}`, { providerKey: pk }),
    );
    expectDocumented(
      'GET',
      '/api/v1/provider/tenants',
      await suite.api('GET', '/api/v1/provider/tenants', { providerKey: pk }),
    );
    expectDocumented(
      'POST',
      '/api/v1/provider/tenants/{id}/api-keys',
      await suite.api('POST', `/api/v1/provider/tenants/${t.tenant.id}/api-keys`, {
        providerKey: pk,
        body: { name: 'CI', permissions: ['rooms.read'] },
      }),
    );
    expectDocumented(
      'POST',
      '/api/v1/provider/tenants',
      await suite.api('POST', '/api/v1/provider/tenants', {
        providerKey: pk,
        body: { name: 'Second', webhookEvents: ['room.finished'] },
      }),
    );
  });

  it('webhook deliveries (with their attempts) answer exactly as documented', async () => {
    const t = await seedTenant({ webhookUrl: receiver.url });
    const sent = expectDocumented(
      'POST',
      '/api/v1/webhooks/test',
      await suite.api('POST', '/api/v1/webhooks/test', { key: t.key, body: {} }),
    );
    const page = await until(async () => {
      const res = await suite.api('GET', '/api/v1/webhooks/deliveries', { key: t.key });
      return res.body.data?.[0]?.status === 'delivered' ? res : undefined;
    }, 'the delivery to be delivered');
    const listed = expectDocumented('GET', '/api/v1/webhooks/deliveries', page);
    expect(listed.data[0]).toMatchObject({
      id: sent.deliveryId,
      status: 'delivered',
      attempts: expect.arrayContaining([expect.objectContaining({ responseStatus: 200 })]),
    });
    expectDocumented(
      'GET',
      '/api/v1/webhooks/deliveries/{id}',
      await suite.api('GET', `/api/v1/webhooks/deliveries/${sent.deliveryId}`, { key: t.key }),
    );
  });
});
