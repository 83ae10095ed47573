-- The join, in one statement (lib/domain/participants/join.ts): the room's rules in order
-- (too early, locked, ended, turned away, waiting room, full), then the participant found or
-- created through the (roomId, externalUserId) unique index, and the room with its participants.
-- One argument, a JSON object (keys below), so a new rule or column changes one place.
--
--   tenantId, roomId, externalUserId, role, privileged (host or moderator: past the lock and the
--   waiting room), now, holdSince (an unconnected seat is held when its token is newer), planCap,
--   joinWindowMinutes, newId, mediaIdentity, profile {displayName, avatarUrl?, externalRole?,
--   externalMetadata?: a key absent keeps the row's value}, permissions (the role's defaults),
--   participantsLimit, knownRoomVersion (the caller's cached room: none of it is sent again when
--   unchanged), admissionHash, eventId, deliveryId (used only on a first park in the waiting
--   room), exclusive, reopen.
--
-- Far from its cap (more than 8 rows of headroom, read without a lock), a room takes joins side
-- by side: each holds the room row FOR SHARE, so a change to the room (lock, end, settings) waits
-- for the joins in flight and they for it, but joins do not wait for each other. Near the cap, or
-- with `exclusive`, a join holds the room FOR UPDATE, alone, and counts exactly. The outcome
-- 'slow' asks the caller to call again with `exclusive` (a shared join found the room near its
-- cap); 'ended' asks it to call again with `reopen` inside a transaction, so that a refusal rolls
-- the re-opening back.
CREATE OR REPLACE FUNCTION convene_join(p jsonb) RETURNS json
    LANGUAGE plpgsql
    SET enable_sort TO 'off'
    AS $$
DECLARE
  room_id text := p->>'roomId';
  user_id text := p->>'externalUserId';
  privileged boolean := (p->>'privileged')::boolean;
  now_at timestamp(3) := (p->>'now')::timestamptz AT TIME ZONE 'UTC';
  hold_since timestamp(3) := (p->>'holdSince')::timestamptz AT TIME ZONE 'UTC';
  profile jsonb := p->'profile';
  permissions jsonb := p->'permissions';
  participants_limit int := (p->>'participantsLimit')::int;
  known_version text := p->>'knownRoomVersion';
  r "Room"%ROWTYPE;
  e "Participant"%ROWTYPE;
  x "Participant"%ROWTYPE;
  cap int;
  shared boolean;
  own boolean;
  room_xmin text;
  outcome text := 'ok';
  first_park boolean;
  my_share int := convene_participant_rows_share();
BEGIN
  -- The room by its primary key alone, its tenant compared here (a room never changes tenant), so
  -- no plan can answer it through the tenant's rooms.
  SELECT y."tenantId" = p->>'tenantId',
         NOT coalesce((p->>'exclusive')::boolean, false)
           AND least(y."maxParticipants", (p->>'planCap')::int) - coalesce((SELECT sum(c."count") FROM "RoomParticipantRows" c WHERE c."roomId" = y.id), 0) > 8
    INTO own, shared FROM "Room" y WHERE y.id = room_id;
  IF NOT FOUND OR NOT own THEN RETURN json_build_object('outcome', 'not_found'); END IF;
  IF shared THEN
    SELECT * INTO r FROM "Room" WHERE id = room_id FOR SHARE;
  ELSE
    SELECT * INTO r FROM "Room" WHERE id = room_id FOR UPDATE;
  END IF;
  IF NOT FOUND THEN RETURN json_build_object('outcome', 'not_found'); END IF;
  cap := least(r."maxParticipants", (p->>'planCap')::int);
  IF r."scheduledAt" IS NOT NULL AND NOT privileged
      AND now_at < r."scheduledAt" - make_interval(mins => (p->>'joinWindowMinutes')::int) THEN
    RETURN json_build_object('outcome', 'too_early', 'room', row_to_json(r));
  END IF;
  IF r."isLocked" AND NOT privileged THEN RETURN json_build_object('outcome', 'locked'); END IF;
  IF r.status = 'ENDED' THEN
    IF NOT coalesce((p->>'reopen')::boolean, false) OR shared THEN RETURN json_build_object('outcome', 'ended'); END IF;
    r := convene_reopen_room(r.id, now_at);
  END IF;

  -- A waiting room admits only those a moderator approved before; anyone else is parked there.
  -- A participant turned away never comes back.
  IF r."enableWaitingRoom" AND NOT privileged THEN
    SELECT * INTO e FROM convene_participant_of(r.id, user_id);
    IF FOUND AND e."connectionState" IN ('REMOVED', 'DENIED') THEN RETURN json_build_object('outcome', 'refused'); END IF;
    IF NOT FOUND OR NOT e."isApproved" THEN
      IF NOT FOUND THEN
        INSERT INTO "Participant" (id, "roomId", "tenantId", "externalUserId", "displayName", "avatarUrl", "mediaIdentity", role,
            "canPublish", "canSubscribe", "canPublishData", "canScreenShare", "canRecord",
            "externalRole", "externalMetadata", "connectionState", "isApproved", "admissionSecretHash", "createdAt", "updatedAt")
          VALUES (p->>'newId', r.id, r."tenantId", user_id, profile->>'displayName', profile->>'avatarUrl', p->>'mediaIdentity', (p->>'role')::"ParticipantRole",
            (permissions->>'canPublish')::boolean, (permissions->>'canSubscribe')::boolean, (permissions->>'canPublishData')::boolean,
            (permissions->>'canScreenShare')::boolean, (permissions->>'canRecord')::boolean,
            profile->>'externalRole', NULLIF(profile->'externalMetadata', 'null'::jsonb), 'WAITING', false, p->>'admissionHash', now_at, now_at)
          ON CONFLICT ("roomId", "externalUserId") DO NOTHING
          RETURNING * INTO x;
        first_park := FOUND;
      END IF;
      IF x.id IS NULL THEN
        -- The row exists (or a racing join of the same user just made it): decided on the row, locked.
        IF e.id IS NULL THEN SELECT * INTO e FROM convene_participant_of(r.id, user_id); END IF;
        SELECT * INTO e FROM "Participant" y WHERE y.id = e.id FOR UPDATE;
        IF e."connectionState" IN ('REMOVED', 'DENIED') THEN RETURN json_build_object('outcome', 'refused'); END IF;
        IF NOT e."isApproved" THEN
          first_park := e."connectionState" <> 'WAITING';
          UPDATE "Participant" AS y SET
              "displayName" = profile->>'displayName',
              role = (p->>'role')::"ParticipantRole",
              "avatarUrl" = CASE WHEN profile ? 'avatarUrl' THEN profile->>'avatarUrl' ELSE y."avatarUrl" END,
              "externalRole" = CASE WHEN profile ? 'externalRole' THEN profile->>'externalRole' ELSE y."externalRole" END,
              "externalMetadata" = CASE WHEN profile ? 'externalMetadata' THEN NULLIF(profile->'externalMetadata', 'null'::jsonb) ELSE y."externalMetadata" END,
              "connectionState" = 'WAITING', "isApproved" = false, "admissionSecretHash" = p->>'admissionHash', "updatedAt" = now_at
            WHERE y.id = e.id
            RETURNING * INTO x;
        END IF;
      END IF;
      IF x.id IS NOT NULL THEN
        IF first_park THEN
          PERFORM convene_emit_event(p->>'eventId', r."tenantId", 'participant.waiting',
            jsonb_build_object('roomId', r.id, 'participantId', x.id, 'externalUserId', x."externalUserId"), now_at, p->>'deliveryId', false);
        END IF;
        outcome := 'waiting';
      END IF;
      -- Otherwise approved meanwhile: the join goes on as any other.
    END IF;
  END IF;

  -- Not parked: a seat, as every join.
  IF outcome = 'ok' THEN
    IF shared THEN
      -- This connection's share of the count, locked until commit (made if the room has none yet):
      -- so at most 8 joins are ever between here and their commit, one per share, each adding at
      -- most one row. The sum read after it holds every row committed before; with those 8, the
      -- rows can never pass the cap. If they could (a room filling while this join waited), the
      -- exclusive join decides, alone and counting exactly.
      PERFORM 1 FROM "RoomParticipantRows" WHERE "roomId" = r.id AND share = my_share FOR UPDATE;
      IF NOT FOUND THEN
        INSERT INTO "RoomParticipantRows" ("roomId", share) VALUES (r.id, my_share) ON CONFLICT DO NOTHING;
        PERFORM 1 FROM "RoomParticipantRows" WHERE "roomId" = r.id AND share = my_share FOR UPDATE;
      END IF;
      IF (SELECT coalesce(sum(c."count"), 0) FROM "RoomParticipantRows" c WHERE c."roomId" = r.id) + 8 > cap THEN
        RETURN json_build_object('outcome', 'slow');
      END IF;
    ELSIF NOT convene_seat_free(r.id, user_id, cap, hold_since) THEN
      -- Turned away comes before full.
      SELECT * INTO e FROM convene_participant_of(r.id, user_id);
      IF FOUND AND e."connectionState" IN ('REMOVED', 'DENIED') THEN RETURN json_build_object('outcome', 'refused'); END IF;
      RETURN json_build_object('outcome', 'full', 'cap', cap);
    END IF;

    -- Found or created through the unique index. A returning participant keeps its row: new profile,
    -- the role's permissions if the role changed, one more rejoin, a fresh seat hold. One turned away
    -- is not updated (the WHERE), so nothing comes back: refused.
    INSERT INTO "Participant" AS y (id, "roomId", "tenantId", "externalUserId", "displayName", "avatarUrl", "mediaIdentity", role,
        "canPublish", "canSubscribe", "canPublishData", "canScreenShare", "canRecord",
        "externalRole", "externalMetadata", "tokenIssuedAt", "createdAt", "updatedAt")
      VALUES (p->>'newId', r.id, r."tenantId", user_id, profile->>'displayName', profile->>'avatarUrl', p->>'mediaIdentity', (p->>'role')::"ParticipantRole",
        (permissions->>'canPublish')::boolean, (permissions->>'canSubscribe')::boolean, (permissions->>'canPublishData')::boolean,
        (permissions->>'canScreenShare')::boolean, (permissions->>'canRecord')::boolean,
        profile->>'externalRole', NULLIF(profile->'externalMetadata', 'null'::jsonb), now_at, now_at, now_at)
      ON CONFLICT ("roomId", "externalUserId") DO UPDATE SET
        "displayName" = EXCLUDED."displayName",
        role = EXCLUDED.role,
        "avatarUrl" = CASE WHEN profile ? 'avatarUrl' THEN EXCLUDED."avatarUrl" ELSE y."avatarUrl" END,
        "externalRole" = CASE WHEN profile ? 'externalRole' THEN EXCLUDED."externalRole" ELSE y."externalRole" END,
        "externalMetadata" = CASE WHEN profile ? 'externalMetadata' THEN EXCLUDED."externalMetadata" ELSE y."externalMetadata" END,
        "canPublish" = CASE WHEN y.role <> EXCLUDED.role THEN EXCLUDED."canPublish" ELSE y."canPublish" END,
        "canSubscribe" = CASE WHEN y.role <> EXCLUDED.role THEN EXCLUDED."canSubscribe" ELSE y."canSubscribe" END,
        "canPublishData" = CASE WHEN y.role <> EXCLUDED.role THEN EXCLUDED."canPublishData" ELSE y."canPublishData" END,
        "canScreenShare" = CASE WHEN y.role <> EXCLUDED.role THEN EXCLUDED."canScreenShare" ELSE y."canScreenShare" END,
        "canRecord" = CASE WHEN y.role <> EXCLUDED.role THEN EXCLUDED."canRecord" ELSE y."canRecord" END,
        "rejoinCount" = y."rejoinCount" + 1,
        "tokenIssuedAt" = now_at,
        "connectionState" = CASE WHEN y."connectionState" = 'CONNECTED' THEN 'CONNECTED'::"ConnectionState" ELSE 'PENDING'::"ConnectionState" END,
        "updatedAt" = now_at
      WHERE y."connectionState" NOT IN ('REMOVED', 'DENIED')
      RETURNING * INTO x;
    IF NOT FOUND THEN RETURN json_build_object('outcome', 'refused'); END IF;
  END IF;

  -- The room in the result carries its participants, as every Room response does. Its version
  -- names the exact row versions it is made of: the room's xmin (the row is locked, it cannot
  -- change before commit) and each listed participant's id and xmin. A caller already holding that
  -- version gets none of it again; otherwise the list and its version come from one statement.
  SELECT y.xmin::text INTO room_xmin FROM "Room" y WHERE y.id = r.id;
  IF known_version IS NOT NULL AND known_version = room_xmin || ':' || coalesce(
      (SELECT string_agg(l.version, ',') FROM convene_room_page(r.id, participants_limit) l), '') THEN
    RETURN json_build_object('outcome', outcome, 'participant', row_to_json(x), 'roomVersion', known_version);
  END IF;
  RETURN (SELECT json_build_object('outcome', outcome, 'participant', row_to_json(x),
      'roomVersion', room_xmin || ':' || coalesce(string_agg(l.version, ','), ''),
      'room', row_to_json(r),
      'participants', coalesce(json_agg(l.participant), '[]'::json))
    FROM convene_room_page(r.id, participants_limit) l);
END
$$;
