-- A Room response lists its first participants present or on their way in (PENDING, WAITING,
-- CONNECTED), in join order. Read until now with Prisma's nested `take`, which PostgreSQL never
-- saw: Prisma fetched every present participant of the room and kept the first ten in memory, so
-- GET /rooms/{id} of a 30,000-person webinar read 30,000 rows (0.5-1 s). And the join's own
-- query was planned from the table's statistics, which describe an average room: for a webinar
-- filling faster than statistics follow (or with autovacuum off) PostgreSQL chose to sort every
-- participant of the room on each join, so a join cost grew with the room.

-- Only the participants a Room response can list are indexed, in join order.
CREATE INDEX "Participant_present_roomId_createdAt_id_idx" ON "Participant"("roomId", "createdAt", "id")
  WHERE "connectionState" IN ('PENDING', 'WAITING', 'CONNECTED');

-- The one definition of that list, for any number of rooms (GET /rooms pages 100): the first
-- p_limit of each room, in join order. A plain SQL function, so PostgreSQL inlines it into the
-- statement that calls it and plans it there.
CREATE FUNCTION convene_room_participants(p_room_ids text[], p_limit int) RETURNS SETOF "Participant" AS $$
  SELECT p.* FROM unnest(p_room_ids) AS room(id)
  CROSS JOIN LATERAL (
    SELECT * FROM "Participant" x
      WHERE x."roomId" = room.id AND x."connectionState" IN ('PENDING', 'WAITING', 'CONNECTED')
      ORDER BY x."createdAt", x.id LIMIT p_limit
  ) p
$$ LANGUAGE sql STABLE;

-- Its callers plan it with sorting disabled, so the plan is the ordered index walk whatever the
-- statistics say (the only sort-free plan): a few index entries per room, never a sort over a
-- room's participants. This one is for a statement of its own (lib/domain/rooms.ts); PL/pgSQL, so
-- each connection plans it once.
CREATE FUNCTION convene_read_room_participants(p_room_ids text[], p_limit int) RETURNS SETOF "Participant" AS $$
BEGIN
  RETURN QUERY SELECT * FROM convene_room_participants(p_room_ids, p_limit);
END
$$ LANGUAGE plpgsql STABLE SET enable_sort = off;

-- convene_join, rewritten. It reads the list above (the limit now given by the caller,
-- ROOM_PARTICIPANTS_LIMIT), and it no longer looks the joining user up with a plain query before
-- writing: with statistics that describe small rooms, PostgreSQL answered "this room's row for
-- this user" through the (roomId, createdAt, id) index with a filter, reading every participant
-- of the room on each join (3,000 rows for the 3,001st joiner). The participant is now found or
-- created by INSERT ... ON CONFLICT on the (roomId, externalUserId) unique index, which is always
-- the index used: a new user is inserted, a returning one updated, in one write. The rules and
-- their order are unchanged; the lookups that remain run only on rare paths (a waiting room, a
-- full room). Planned with sorting disabled (none of its queries needs a sort).
DROP FUNCTION convene_join(text, text, text, "ParticipantRole", boolean, timestamp(3), timestamp(3), int, int, text, text, jsonb, jsonb);
CREATE FUNCTION convene_join(
  p_tenant_id text,
  p_room_id text,
  p_external_user_id text,
  p_role "ParticipantRole",
  p_privileged boolean,
  p_now timestamp(3),
  p_hold_since timestamp(3),
  p_plan_cap int,
  p_join_window_minutes int,
  p_new_id text,
  p_media_identity text,
  p_profile jsonb,
  p_permissions jsonb,
  p_participants_limit int
) RETURNS json AS $$
DECLARE
  r "Room"%ROWTYPE;
  e "Participant"%ROWTYPE;
  p "Participant"%ROWTYPE;
  cap int;
  taken int;
BEGIN
  SELECT * INTO r FROM "Room" WHERE id = p_room_id AND "tenantId" = p_tenant_id FOR UPDATE;
  IF NOT FOUND THEN RETURN json_build_object('outcome', 'not_found'); END IF;
  IF r."scheduledAt" IS NOT NULL AND NOT p_privileged AND p_now < r."scheduledAt" - make_interval(mins => p_join_window_minutes) THEN
    RETURN json_build_object('outcome', 'too_early', 'room', row_to_json(r));
  END IF;
  IF r."isLocked" AND NOT p_privileged THEN RETURN json_build_object('outcome', 'locked'); END IF;
  IF r.status = 'ENDED' THEN RETURN json_build_object('outcome', 'slow'); END IF;

  -- A waiting room admits only those a moderator approved before; anyone else is parked there by
  -- the transactional path. A participant turned away never comes back.
  IF r."enableWaitingRoom" AND NOT p_privileged THEN
    SELECT * INTO e FROM "Participant" WHERE "roomId" = r.id AND "externalUserId" = p_external_user_id;
    IF FOUND AND e."connectionState" IN ('REMOVED', 'DENIED') THEN RETURN json_build_object('outcome', 'refused'); END IF;
    IF NOT FOUND OR NOT e."isApproved" THEN RETURN json_build_object('outcome', 'slow'); END IF;
  END IF;

  cap := least(r."maxParticipants", p_plan_cap);
  -- Rows ever inserted bound the seats taken: below the cap there is a free seat without counting.
  IF r."participantRows" >= cap THEN
    SELECT count(*)::int INTO taken FROM "Participant" s
      WHERE s."roomId" = r.id AND s."externalUserId" <> p_external_user_id AND s."isApproved"
        AND (s."connectionState" = 'CONNECTED' OR (s."connectionState" = 'PENDING' AND s."tokenIssuedAt" > p_hold_since));
    IF taken >= cap THEN
      -- Turned away comes before full, as it always has.
      PERFORM 1 FROM "Participant" WHERE "roomId" = r.id AND "externalUserId" = p_external_user_id
        AND "connectionState" IN ('REMOVED', 'DENIED');
      IF FOUND THEN RETURN json_build_object('outcome', 'refused'); END IF;
      RETURN json_build_object('outcome', 'full', 'cap', cap);
    END IF;
  END IF;

  -- Found or created through the unique index. A returning participant keeps its row: new profile,
  -- the role's permissions if the role changed, one more rejoin, a fresh seat hold. One turned away
  -- is not updated (the WHERE), so nothing comes back: refused.
  INSERT INTO "Participant" AS x (id, "roomId", "tenantId", "externalUserId", "displayName", "avatarUrl", "mediaIdentity", role,
      "canPublish", "canSubscribe", "canPublishData", "canScreenShare", "canRecord",
      "externalRole", "externalMetadata", "tokenIssuedAt", "createdAt", "updatedAt")
    VALUES (p_new_id, r.id, r."tenantId", p_external_user_id, p_profile->>'displayName', p_profile->>'avatarUrl', p_media_identity, p_role,
      (p_permissions->>'canPublish')::boolean, (p_permissions->>'canSubscribe')::boolean, (p_permissions->>'canPublishData')::boolean,
      (p_permissions->>'canScreenShare')::boolean, (p_permissions->>'canRecord')::boolean,
      p_profile->>'externalRole', NULLIF(p_profile->'externalMetadata', 'null'::jsonb), p_now, p_now, p_now)
    ON CONFLICT ("roomId", "externalUserId") DO UPDATE SET
      "displayName" = EXCLUDED."displayName",
      role = EXCLUDED.role,
      "avatarUrl" = CASE WHEN p_profile ? 'avatarUrl' THEN EXCLUDED."avatarUrl" ELSE x."avatarUrl" END,
      "externalRole" = CASE WHEN p_profile ? 'externalRole' THEN EXCLUDED."externalRole" ELSE x."externalRole" END,
      "externalMetadata" = CASE WHEN p_profile ? 'externalMetadata' THEN EXCLUDED."externalMetadata" ELSE x."externalMetadata" END,
      "canPublish" = CASE WHEN x.role <> EXCLUDED.role THEN EXCLUDED."canPublish" ELSE x."canPublish" END,
      "canSubscribe" = CASE WHEN x.role <> EXCLUDED.role THEN EXCLUDED."canSubscribe" ELSE x."canSubscribe" END,
      "canPublishData" = CASE WHEN x.role <> EXCLUDED.role THEN EXCLUDED."canPublishData" ELSE x."canPublishData" END,
      "canScreenShare" = CASE WHEN x.role <> EXCLUDED.role THEN EXCLUDED."canScreenShare" ELSE x."canScreenShare" END,
      "canRecord" = CASE WHEN x.role <> EXCLUDED.role THEN EXCLUDED."canRecord" ELSE x."canRecord" END,
      "rejoinCount" = x."rejoinCount" + 1,
      "tokenIssuedAt" = p_now,
      "connectionState" = CASE WHEN x."connectionState" = 'CONNECTED' THEN 'CONNECTED'::"ConnectionState" ELSE 'PENDING'::"ConnectionState" END,
      "updatedAt" = p_now
    WHERE x."connectionState" NOT IN ('REMOVED', 'DENIED')
    RETURNING * INTO p;
  IF NOT FOUND THEN RETURN json_build_object('outcome', 'refused'); END IF;

  -- The Room in the join result carries its participants, as every Room response does.
  RETURN json_build_object('outcome', 'ok', 'room', row_to_json(r), 'participant', row_to_json(p), 'participants', (
    SELECT coalesce(json_agg(l ORDER BY l."createdAt", l.id), '[]'::json)
    FROM convene_room_participants(ARRAY[r.id], p_participants_limit) l));
END
$$ LANGUAGE plpgsql SET enable_sort = off;
