/**
 * The API reference's `webhooks` section against real deliveries: the running app is driven
 * through every event in the catalogue (media-layer webhooks, joins, recordings, a transcript,
 * calls, the test endpoint), and every delivery a real receiver gets must validate against the
 * envelope + data JSON Schema the served document gives for its event (objects are closed:
 * an undocumented or a missing field fails), against the catalogue's zod schema, and its
 * headers against the documented header schemas.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { useSuite, seedTenant } from './support/suite';
import { startWebhookReceiver, type ReceivedWebhook, type WebhookReceiver } from './support/webhook-receiver';
import { problems, servedDocument, validatorFor, type JsonSchema } from './support/openapi';
import { EVENT_NAMES, eventEnvelope, isEventName } from '@/lib/events/catalog';
import { deliveryHeaders } from '@/lib/events/delivery';
import { db } from '@/lib/db';
import { until } from './support/until';
import { startOpenAiStub, type OpenAiStub } from './notes/support/openai-server';
import { startSttServer, type SttServer } from './support/stt-server';

interface WebhookOperation {
  parameters: { name: string; in: string; required: boolean; schema: JsonSchema }[];
  requestBody: { required: boolean; content: Record<string, { schema: JsonSchema }> };
  responses: Record<string, { description: string }>;
}
interface Doc {
  webhooks: Record<string, { post: WebhookOperation }>;
  components: { schemas: Record<string, JsonSchema> };
  'x-webhooks'?: unknown;
}

const storageDir = mkdtempSync(path.join(os.tmpdir(), 'convene-storage-'));
/** Loopback speech-to-text and chat providers, so transcript.ready and summary.ready are produced for real. */
let stt: SttServer;
let llm: OpenAiStub;
const suite = useSuite({
  env: async () => {
    stt = await startSttServer('hello');
    llm = await startOpenAiStub();
    return { STORAGE_DIR: storageDir, STT_BASE_URL: stt.baseUrl, STT_API_KEY: 'stt-key', LLM_BASE_URL: llm.baseUrl };
  },
});

let doc: Doc;
let receiver: WebhookReceiver;
beforeAll(async () => {
  receiver = await startWebhookReceiver();
  doc = await servedDocument(suite);
});
afterAll(async () => {
  await receiver?.close();
  await stt?.close();
  await llm?.close();
});

function operation(name: string): WebhookOperation {
  const op = doc.webhooks?.[name]?.post;
  if (!op) throw new Error(`webhook ${name} is not in the document`);
  return op;
}

/** The documented envelope of an event, as a validator built from the served JSON Schema. */
function documentedEnvelope(name: string) {
  const schema = operation(name).requestBody.content['application/json']?.schema;
  if (!schema) throw new Error(`webhook ${name} documents no JSON body`);
  return validatorFor(schema, doc.components.schemas);
}

/** Fails unless a real delivery is exactly what the document (and the catalogue) says. */
function expectDocumentedDelivery(got: ReceivedWebhook) {
  const body = JSON.parse(got.body);
  const name = String(got.headers['x-webhook-event']);
  expect(isEventName(name), `${name} is in the catalogue`).toBe(true);
  expect(body.event).toBe(name);
  expect(
    problems(documentedEnvelope(name).safeParse(body)),
    `${name} against the served document: ${got.body}`,
  ).toEqual([]);
  const parsed = eventEnvelope(name as (typeof EVENT_NAMES)[number]).safeParse(body);
  expect(problems(parsed), `${name} against the catalogue's zod schema`).toEqual([]);
  // zod objects drop unknown keys, so anything undocumented would be missing here.
  expect(parsed.data, `${name}: fields not in the schema`).toEqual(body);
  for (const param of operation(name).parameters) {
    expect(param.in).toBe('header');
    const value = got.headers[param.name];
    expect(value, `${name}: header ${param.name}`).toEqual(expect.any(String));
    expect(problems(z.fromJSONSchema(param.schema).safeParse(value)), `${name}: header ${param.name}=${value}`).toEqual(
      [],
    );
  }
  expect(got.headers['x-webhook-id']).toBe(body.id);
  expect(got.headers['x-webhook-timestamp']).toBe(body.occurredAt);
  return body;
}

describe('webhook events in the API reference', () => {
  it('documents every catalogue event as an OpenAPI 3.1 webhook, and nothing else', () => {
    expect(Object.keys(doc.webhooks).sort()).toEqual([...EVENT_NAMES].sort());
    expect(doc['x-webhooks']).toBeUndefined();
    // The documented headers are the ones a delivery carries.
    const sent = Object.keys(
      deliveryHeaders({ id: 'evt_x', name: 'webhook.test', occurredAt: new Date() }, '{}', ['whsec_x']),
    ).filter((h) => h.startsWith('x-webhook-'));
    for (const name of EVENT_NAMES) {
      const op = operation(name);
      expect(op.parameters.map((p) => p.name).sort(), name).toEqual(sent.sort());
      expect(op.parameters.every((p) => p.in === 'header' && p.required)).toBe(true);
      const envelope = op.requestBody.content['application/json'].schema as {
        properties: Record<string, JsonSchema>;
        required: string[];
        additionalProperties: boolean;
      };
      expect(envelope.required.sort()).toEqual(['data', 'event', 'id', 'occurredAt', 'version']);
      expect(envelope.additionalProperties).toBe(false);
      expect(envelope.properties.event.const).toBe(name);
      expect(envelope.properties.version.const).toBe(2);
      const ref = String(envelope.properties.data.$ref).replace('#/components/schemas/', '');
      const data = doc.components.schemas[ref] as { properties?: object; additionalProperties?: boolean };
      expect(data?.properties, `${name}: data ${ref}`).toBeDefined();
      expect(data.additionalProperties).toBe(false);
      expect(Object.keys(op.responses)).toContain('2XX');
    }
  });

  describe('real deliveries', () => {
    let t: Awaited<ReturnType<typeof seedTenant>>;
    const hook = () => `${suite.app.baseUrl}/api/media/webhook`;
    const api = (method: string, url: string, body?: Record<string, unknown>) =>
      suite.api(method, url, { key: t.key, ...(body ? { body } : {}) });
    const byName = (name: string) => receiver.received.filter((r) => r.headers['x-webhook-event'] === name);

    beforeAll(async () => {
      t = await seedTenant({
        plan: 'growth',
        webhookUrl: receiver.url,
        entitlementOverrides: { apiRequestsPerSecond: 1000 },
      });

      // Rooms and participants through the media layer's webhooks.
      const room = (
        await api('POST', '/api/v1/rooms', {
          createdByExternalId: 'host',
          enableRecording: true,
          enableAiFeatures: true,
        })
      ).body;
      const ada = (await api('POST', `/api/v1/rooms/${room.id}/join`, { externalUserId: 'ada', displayName: 'Ada' }))
        .body.participant;
      await suite.media.sendWebhook(hook(), { event: 'room_started', room: { name: room.mediaRoomName, sid: 'RM_1' } });
      await suite.media.sendWebhook(hook(), {
        event: 'participant_joined',
        room: { name: room.mediaRoomName },
        participant: { identity: ada.mediaIdentity, sid: 'PA_1', joinedAt: String(Math.floor(Date.now() / 1000) - 5) },
      });
      await suite.media.sendWebhook(hook(), {
        event: 'participant_left',
        room: { name: room.mediaRoomName },
        participant: { identity: ada.mediaIdentity, sid: 'PA_1' },
      });

      // A recording that completes (egress.started, egress.ended, recording.completed, then transcript.ready and summary.ready) …
      const rec = (await api('POST', `/api/v1/rooms/${room.id}/recordings/start`, {})).body;
      const egress = [...suite.media.egresses.values()].at(-1)!;
      await suite.media.sendWebhook(hook(), {
        event: 'egress_started',
        egressInfo: { egressId: egress.egressId, roomName: room.mediaRoomName, status: 'EGRESS_ACTIVE' },
      });
      const file = path.join(
        storageDir,
        (await db().recording.findUniqueOrThrow({ where: { id: rec.id } })).storageKey,
      );
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, Buffer.alloc(2048, 7));
      await suite.media.sendWebhook(hook(), {
        event: 'egress_ended',
        egressInfo: { egressId: egress.egressId, roomName: room.mediaRoomName, status: 'EGRESS_COMPLETE' },
      });
      // … and one that fails.
      const other = (await api('POST', '/api/v1/rooms', { createdByExternalId: 'host', enableRecording: true })).body;
      await api('POST', `/api/v1/rooms/${other.id}/recordings/start`, {});
      const failing = [...suite.media.egresses.values()].at(-1)!;
      await suite.media.sendWebhook(hook(), {
        event: 'egress_ended',
        egressInfo: {
          egressId: failing.egressId,
          roomName: other.mediaRoomName,
          status: 'EGRESS_FAILED',
          error: 'encoder crashed',
        },
      });

      // A stream that goes live, then fails at its destination (stream.started, stream.ended).
      const live = (
        await api('POST', '/api/v1/streaming/start', { roomId: room.id, urls: ['rtmp://127.0.0.1:9/live/sk_test'] })
      ).body;
      const streamEgress = [...suite.media.egresses.values()].at(-1)!;
      for (const [event, status, error] of [
        ['egress_started', 'EGRESS_ACTIVE', ''],
        ['egress_started', 'EGRESS_ACTIVE', ''], // repeated: the stream starts once
        ['egress_ended', 'EGRESS_FAILED', 'rtmp: Connection refused'],
        ['egress_ended', 'EGRESS_FAILED', 'late'], // and ends once
      ])
        await suite.media.sendWebhook(hook(), {
          event,
          egressInfo: { egressId: streamEgress.egressId, roomName: room.mediaRoomName, status, error },
        });
      // Every unreachable destination reads the same (a closed port must not read unlike an open one).
      expect((await api('GET', `/api/v1/streaming/${live.id}`)).body).toMatchObject({
        status: 'FAILED',
        error: 'A stream destination could not be reached or did not accept the stream.',
      });

      await suite.media.sendWebhook(hook(), {
        event: 'ingress_started',
        ingressInfo: { ingressId: 'IN_1', roomName: room.mediaRoomName, state: { status: 'ENDPOINT_PUBLISHING' } },
      });
      await suite.media.sendWebhook(hook(), {
        event: 'ingress_ended',
        ingressInfo: { ingressId: 'IN_1', roomName: room.mediaRoomName, state: { status: 'ENDPOINT_INACTIVE' } },
      });

      // The waiting room.
      const gated = (await api('POST', '/api/v1/rooms', { createdByExternalId: 'host', enableWaitingRoom: true })).body;
      expect(
        (await api('POST', `/api/v1/rooms/${gated.id}/join`, { externalUserId: 'late', displayName: 'Late' })).body
          .waitingForApproval,
      ).toBe(true);

      // Calls: answered, forwarded then missed, cancelled.
      const call = async () =>
        (await api('POST', '/api/v1/calls', { callerExternalId: 'cust-1', callerDisplayName: 'Customer' })).body;
      const answered = await call();
      await api('POST', `/api/v1/calls/${answered.id}/ring`, { agentExternalId: 'agent-1' });
      expect(
        (
          await api('POST', `/api/v1/calls/${answered.id}/accept`, {
            acceptedByExternalId: 'agent-1',
            acceptedByDisplayName: 'Agent',
          })
        ).status,
      ).toBe(200);
      expect((await api('POST', `/api/v1/calls/${answered.id}/end`, {})).status).toBe(200);
      const forwarded = await call();
      await api('POST', `/api/v1/calls/${forwarded.id}/ring`, { agentExternalId: 'agent-1' });
      await api('POST', `/api/v1/calls/${forwarded.id}/forward`, {
        forwardedByExternalId: 'agent-1',
        forwardedToExternalId: 'agent-9',
      });
      await api('POST', `/api/v1/calls/${forwarded.id}/miss`, {});
      await api('POST', `/api/v1/calls/${(await call()).id}/cancel`, {});

      expect((await api('POST', `/api/v1/rooms/${room.id}/end`)).status).toBe(200);
      expect((await api('POST', '/api/v1/webhooks/test', {})).status).toBe(202);

      await until(
        () => (EVENT_NAMES.every((name) => byName(name).length > 0) ? true : undefined),
        `a delivery of every event; missing: ${EVENT_NAMES.filter((n) => byName(n).length === 0)}`,
        30_000,
      );
    }, 60_000);

    it('every event in the catalogue was delivered, and every delivery is exactly as documented', () => {
      expect(receiver.received.length).toBeGreaterThanOrEqual(EVENT_NAMES.length);
      for (const got of receiver.received) expectDocumentedDelivery(got);
    });

    it('the data is what the emitters say it is', () => {
      const data = (name: string) => JSON.parse(byName(name)[0].body).data;
      expect(data('participant.joined')).toEqual({
        roomId: expect.any(String),
        participantId: expect.any(String),
        externalUserId: 'ada',
        role: 'ATTENDEE',
        joinedAt: expect.any(String),
      });
      expect(data('participant.waiting')).toEqual({
        roomId: expect.any(String),
        participantId: expect.any(String),
        externalUserId: 'late',
      });
      expect(byName('stream.started').map((d) => JSON.parse(d.body).data.status)).toEqual(['ACTIVE']);
      expect(byName('stream.ended').map((d) => JSON.parse(d.body).data)).toEqual([
        {
          streamId: expect.any(String),
          roomId: expect.any(String),
          status: 'FAILED',
          error: 'A stream destination could not be reached or did not accept the stream.',
        },
      ]);
      expect(data('recording.completed')).toMatchObject({ sizeBytes: 2048 });
      expect(data('recording.failed')).toMatchObject({ error: 'encoder crashed' });
      expect(data('webhook.test')).toEqual({ test: true, message: expect.any(String) });
    });

    it('the check has teeth: an extra, a missing or a mistyped field, or another event name fails', () => {
      const body = JSON.parse(byName('participant.joined')[0].body);
      const served = documentedEnvelope('participant.joined');
      const zodSchema = eventEnvelope('participant.joined');
      const check = (b: unknown) => [served.safeParse(b).success, zodSchema.strict().safeParse(b).success];
      expect(check(body)).toEqual([true, true]);
      const { role: _role, ...withoutRole } = body.data;
      expect(served.safeParse({ ...body, data: { ...body.data, secret: 'leak' } }).success).toBe(false);
      expect(zodSchema.safeParse({ ...body, data: { ...body.data, secret: 'leak' } }).data).not.toEqual({
        ...body,
        data: { ...body.data, secret: 'leak' },
      });
      expect(check({ ...body, data: withoutRole })).toEqual([false, false]);
      expect(check({ ...body, data: { ...body.data, role: 'OWNER' } })).toEqual([false, false]);
      expect(check({ ...body, data: { ...body.data, joinedAt: 'yesterday' } })).toEqual([false, false]);
      expect(check({ ...body, event: 'participant.left' })).toEqual([false, false]);
      expect(check({ ...body, version: 1 })).toEqual([false, false]);
      expect(check({ ...body, extra: true })).toEqual([false, false]);
      // participant.left's data is not participant.joined's.
      expect(documentedEnvelope('participant.left').safeParse({ ...body, event: 'participant.left' }).success).toBe(
        false,
      );
    });
  });
});
