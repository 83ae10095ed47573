-- Joins into a waiting room take the one-statement path too.
--
-- convene_join left parking a user in a waiting room to the transactional join ('slow'): BEGIN,
-- the room FOR UPDATE, the participant, the event, its delivery, COMMIT, each a round trip, and
-- every join into the room queued behind the room lock. A webinar's waiting room is where a
-- thousand people arrive at once. convene_join now parks them itself, under the same room lock
-- as every other join (shared far from the cap: parking takes no seat), with the same rules in
-- the same order: too early, locked, ended (still the transactional path: it reopens the room),
-- turned away (refused), approved before (joins as before). Anyone else is parked: a new row
-- WAITING with the role's default permissions, or the existing row given the new profile and
-- role (its permissions kept), WAITING, not approved, with a new admission secret hash.
--
-- participant.waiting is written in the same statement, exactly as emitEvent writes it (the
-- transactional outbox: an Event row, and a WebhookDelivery when the tenant has a webhook URL
-- whose filter takes the event), and only on the first park: when the row was not WAITING. Two
-- joins of the same user racing each other are ordered by the row: the one that inserts parks
-- first, the other finds the row WAITING (its lock waits for the first to commit), so the event
-- is written once.
--
-- The app passes the new ids (participant, event, delivery), the media identity and the admission
-- secret's hash; the result is outcome 'waiting' with the participant and the room as 'ok' has it.
DROP FUNCTION convene_join(text, text, text, "ParticipantRole", boolean, timestamp(3), timestamp(3), int, int, text, text, jsonb, jsonb, int, text);

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
  p_participants_limit int,
  p_known_room_version text,
  p_admission_hash text,
  p_event_id text,
  p_delivery_id text
) RETURNS json AS $$
DECLARE
  r "Room"%ROWTYPE;
  e "Participant"%ROWTYPE;
  p "Participant"%ROWTYPE;
  cap int;
  inserted int;
  taken int;
  my_share int := convene_participant_rows_share();
  shared boolean;
  own boolean;
  room_xmin text;
  outcome text := 'ok';
  first_park boolean;
  hook_url text;
  subscribed boolean;
BEGIN
  -- Far from its cap (more than 8 rows of headroom, read without a lock), a room takes joins side
  -- by side: each holds the room row FOR SHARE, so a change to the room (lock, end, settings)
  -- still waits for the joins in flight and they for it, but joins do not wait for each other.
  -- Near or at its cap, a join holds the room FOR UPDATE, alone, and counts exactly, as before.
  -- The room is read by its primary key alone and its tenant compared here (a room never changes
  -- tenant), so no plan can answer it through the tenant's rooms.
  SELECT x."tenantId" = p_tenant_id,
         least(x."maxParticipants", p_plan_cap) - coalesce((SELECT sum(c."count") FROM "RoomParticipantRows" c WHERE c."roomId" = x.id), 0) > 8
    INTO own, shared FROM "Room" x WHERE x.id = p_room_id;
  IF NOT FOUND OR NOT own THEN RETURN json_build_object('outcome', 'not_found'); END IF;
  IF shared THEN
    SELECT * INTO r FROM "Room" WHERE id = p_room_id FOR SHARE;
  ELSE
    SELECT * INTO r FROM "Room" WHERE id = p_room_id FOR UPDATE;
  END IF;
  IF NOT FOUND THEN RETURN json_build_object('outcome', 'not_found'); END IF;
  IF r."scheduledAt" IS NOT NULL AND NOT p_privileged AND p_now < r."scheduledAt" - make_interval(mins => p_join_window_minutes) THEN
    RETURN json_build_object('outcome', 'too_early', 'room', row_to_json(r));
  END IF;
  IF r."isLocked" AND NOT p_privileged THEN RETURN json_build_object('outcome', 'locked'); END IF;
  IF r.status = 'ENDED' THEN RETURN json_build_object('outcome', 'slow'); END IF;

  -- A waiting room admits only those a moderator approved before; anyone else is parked there.
  -- A participant turned away never comes back.
  IF r."enableWaitingRoom" AND NOT p_privileged THEN
    SELECT * INTO e FROM convene_participant_of(r.id, p_external_user_id);
    IF FOUND AND e."connectionState" IN ('REMOVED', 'DENIED') THEN RETURN json_build_object('outcome', 'refused'); END IF;
    -- Approved before: the join goes on as any other.
    IF NOT FOUND OR NOT e."isApproved" THEN
      IF NOT FOUND THEN
        INSERT INTO "Participant" (id, "roomId", "tenantId", "externalUserId", "displayName", "avatarUrl", "mediaIdentity", role,
            "canPublish", "canSubscribe", "canPublishData", "canScreenShare", "canRecord",
            "externalRole", "externalMetadata", "connectionState", "isApproved", "admissionSecretHash", "createdAt", "updatedAt")
          VALUES (p_new_id, r.id, r."tenantId", p_external_user_id, p_profile->>'displayName', p_profile->>'avatarUrl', p_media_identity, p_role,
            (p_permissions->>'canPublish')::boolean, (p_permissions->>'canSubscribe')::boolean, (p_permissions->>'canPublishData')::boolean,
            (p_permissions->>'canScreenShare')::boolean, (p_permissions->>'canRecord')::boolean,
            p_profile->>'externalRole', NULLIF(p_profile->'externalMetadata', 'null'::jsonb), 'WAITING', false, p_admission_hash, p_now, p_now)
          ON CONFLICT ("roomId", "externalUserId") DO NOTHING
          RETURNING * INTO p;
        first_park := FOUND;
      END IF;
      IF p.id IS NULL THEN
        -- The row exists (or a racing join of the same user just made it): decided on the row, locked.
        IF e.id IS NULL THEN SELECT * INTO e FROM convene_participant_of(r.id, p_external_user_id); END IF;
        SELECT * INTO e FROM "Participant" x WHERE x.id = e.id FOR UPDATE;
        IF e."connectionState" IN ('REMOVED', 'DENIED') THEN RETURN json_build_object('outcome', 'refused'); END IF;
        IF NOT e."isApproved" THEN
          first_park := e."connectionState" <> 'WAITING';
          UPDATE "Participant" AS x SET
              "displayName" = p_profile->>'displayName',
              role = p_role,
              "avatarUrl" = CASE WHEN p_profile ? 'avatarUrl' THEN p_profile->>'avatarUrl' ELSE x."avatarUrl" END,
              "externalRole" = CASE WHEN p_profile ? 'externalRole' THEN p_profile->>'externalRole' ELSE x."externalRole" END,
              "externalMetadata" = CASE WHEN p_profile ? 'externalMetadata' THEN NULLIF(p_profile->'externalMetadata', 'null'::jsonb) ELSE x."externalMetadata" END,
              "connectionState" = 'WAITING', "isApproved" = false, "admissionSecretHash" = p_admission_hash, "updatedAt" = p_now
            WHERE x.id = e.id
            RETURNING * INTO p;
        END IF;
      END IF;
      IF p.id IS NOT NULL THEN
        IF first_park THEN
          -- The outbox, as emitEvent writes it (lib/events/outbox.ts).
          INSERT INTO "Event" (id, "tenantId", name, data, "occurredAt")
            VALUES (p_event_id, r."tenantId", 'participant.waiting',
                    jsonb_build_object('roomId', r.id, 'participantId', p.id, 'externalUserId', p."externalUserId"), p_now);
          SELECT t."webhookUrl", t."webhookEvents" IS NULL OR jsonb_typeof(t."webhookEvents") = 'null' OR t."webhookEvents" ? 'participant.waiting'
            INTO hook_url, subscribed FROM "Tenant" t WHERE t.id = r."tenantId";
          IF coalesce(hook_url, '') <> '' AND subscribed THEN
            INSERT INTO "WebhookDelivery" (id, "tenantId", "eventId", "eventName", url, status, "nextAttemptAt", "updatedAt")
              VALUES (p_delivery_id, r."tenantId", p_event_id, 'participant.waiting', hook_url, 'PENDING', p_now, p_now);
          END IF;
        END IF;
        outcome := 'waiting';
      END IF;
      -- Otherwise approved meanwhile: the join goes on as any other.
    END IF;
  END IF;

  -- Not parked: a seat, as every join.
  IF outcome = 'ok' THEN
    cap := least(r."maxParticipants", p_plan_cap);
    IF shared THEN
      -- This connection's share of the count, locked until commit (made if the room has none yet):
      -- so at most 8 joins are ever between here and their commit, one per share, each adding at
      -- most one row. The sum read after it holds every row committed before; with those 8, the
      -- rows can never pass the cap. If they could (a room filling while this join waited), the
      -- transactional path decides, alone and counting exactly.
      PERFORM 1 FROM "RoomParticipantRows" WHERE "roomId" = r.id AND share = my_share FOR UPDATE;
      IF NOT FOUND THEN
        INSERT INTO "RoomParticipantRows" ("roomId", share) VALUES (r.id, my_share) ON CONFLICT DO NOTHING;
        PERFORM 1 FROM "RoomParticipantRows" WHERE "roomId" = r.id AND share = my_share FOR UPDATE;
      END IF;
      SELECT coalesce(sum(c."count"), 0) INTO inserted FROM "RoomParticipantRows" c WHERE c."roomId" = r.id;
      IF inserted + 8 > cap THEN RETURN json_build_object('outcome', 'slow'); END IF;
    END IF;
    -- Alone in the room (FOR UPDATE): every join before this one has committed, so the sum is exact.
    -- Rows ever inserted bound the seats taken: below the cap there is a free seat without counting.
    IF NOT shared THEN
      SELECT coalesce(sum(c."count"), 0) INTO inserted FROM "RoomParticipantRows" c WHERE c."roomId" = r.id;
    END IF;
    IF NOT shared AND inserted >= cap THEN
      SELECT count(*)::int INTO taken FROM "Participant" s
        WHERE s."roomId" = r.id AND s."externalUserId" <> p_external_user_id AND s."isApproved"
          AND (s."connectionState" = 'CONNECTED' OR (s."connectionState" = 'PENDING' AND s."tokenIssuedAt" > p_hold_since));
      IF taken >= cap THEN
        -- Turned away comes before full, as it always has.
        SELECT * INTO e FROM convene_participant_of(r.id, p_external_user_id);
        IF FOUND AND e."connectionState" IN ('REMOVED', 'DENIED') THEN RETURN json_build_object('outcome', 'refused'); END IF;
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
  END IF;

  -- The Room in the join result carries its participants, as every Room response does. Its
  -- version names the exact row versions it is made of: the room's xmin (the row is locked, it
  -- cannot change before commit) and each listed participant's id and xmin. The caller already
  -- holding that version gets none of it again; otherwise the list and its version come from
  -- one statement, so they always describe the same rows.
  SELECT x.xmin::text INTO room_xmin FROM "Room" x WHERE x.id = r.id;
  IF p_known_room_version IS NOT NULL AND p_known_room_version = room_xmin || ':' || coalesce(
      (SELECT string_agg(l.version, ',') FROM convene_room_page(r.id, p_participants_limit) l), '') THEN
    RETURN json_build_object('outcome', outcome, 'participant', row_to_json(p), 'roomVersion', p_known_room_version);
  END IF;
  RETURN (SELECT json_build_object('outcome', outcome, 'participant', row_to_json(p),
      'roomVersion', room_xmin || ':' || coalesce(string_agg(l.version, ','), ''),
      'room', row_to_json(r),
      'participants', coalesce(json_agg(l.participant), '[]'::json))
    FROM convene_room_page(r.id, p_participants_limit) l);
END
$$ LANGUAGE plpgsql SET enable_sort = off;
