/**
 * Rooms and participants a test needs as its starting point, made over the API as a tenant. A
 * setup step that the API refuses fails the test there, with the response, rather than later on
 * an undefined field. Tests of the refusals themselves call suite.api directly.
 */
import { expect } from 'vitest';
import type { Suite } from './suite';

/** POST /api/v1/rooms as the tenant with `key`: the created room (anything but 201 fails). */
export async function createRoom(suite: Suite, key: string, body: Record<string, unknown>) {
  const res = await suite.api('POST', '/api/v1/rooms', { key, body });
  expect(res.status, `create room: ${res.text}`).toBe(201);
  return res.body;
}

/** POST /api/v1/rooms/{id}/join as the tenant with `key`: the participant and its token (anything but 200 fails). */
export async function joinRoom(suite: Suite, key: string, roomId: string, body: Record<string, unknown>) {
  const res = await suite.api('POST', `/api/v1/rooms/${roomId}/join`, { key, body });
  expect(res.status, `join room: ${res.text}`).toBe(200);
  return res.body;
}

export interface JoinedPerson {
  token: string;
  id: string;
  mediaIdentity: string;
}

/** Joins each [externalUserId, role] to the room (the name is the id): their participant tokens and ids, by id. */
export async function joinPeople(
  suite: Suite,
  key: string,
  roomId: string,
  people: readonly (readonly [string, string])[],
): Promise<Record<string, JoinedPerson>> {
  const joined: Record<string, JoinedPerson> = {};
  for (const [who, role] of people) {
    const j = await joinRoom(suite, key, roomId, { externalUserId: who, displayName: who, role });
    joined[who] = { token: j.token, ...j.participant };
  }
  return joined;
}
