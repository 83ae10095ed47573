-- The join's room row, in two steps measured one after the other (docs/performance.md).
--
-- 1. Room.participantRows moves to a table of its own, "RoomParticipantRows". The count is the
-- same (participant rows ever inserted for the room, by any writer, kept by the same trigger,
-- never decremented: an upper bound on the seats taken). Every join locked its Room row and
-- bumped this counter on it, so each join left a new version of the Room row behind, and the
-- joins queued on that row had to follow the chain of versions to the newest one each time the
-- lock passed. Into ONE room that made the database spend 0.84 ms of CPU per join at 16
-- concurrent and 1.75 ms at 64, against 0.41-0.54 ms spread over 20 rooms (pgbench, the function
-- alone); with the counter on a row of its own, 0.55 ms and 0.68-0.77 ms. A join now locks the
-- Room row but never rewrites it.
--
-- 2. Joins into one room far from its cap run side by side. Held FOR UPDATE through its own
-- commit, every join into one room ran alone and could not share a WAL flush: sampled during a
-- one-room run, the busy backends were waiting for the room's tuple lock, for the WAL flush of the
-- commit that held it, or for that transaction. pgbench, one room at 16 clients: 0.50-0.55 ms of
-- database CPU per join held FOR UPDATE, 0.32 ms FOR SHARE (the same as over 20 rooms), and about
-- twice the joins per second.
--
-- The seat cap still holds exactly. Shared joins need an upper bound on the rows that no join in
-- flight can overtake, so the count is kept in up to 8 shares per room, one per connection's share
-- number (backend pid mod 8). A shared join locks its connection's share before it reads the sum:
-- at most 8 joins are then in flight, one per share, each adding at most one row, so a join whose
-- sum plus 8 stays within the cap cannot be overtaken. Otherwise, and for any room within 8 rows
-- of its cap, the join takes the room FOR UPDATE as before (every shared join has committed by
-- then, so the sum is exact) and counts seat holders once the rows reach the cap. Every other
-- participant insert holds its room FOR UPDATE (the waiting room, a reopen, a call's seats in the
-- transaction that creates the room), so none is in flight beside shared joins. Everything else
-- about a join is unchanged.

CREATE TABLE "RoomParticipantRows" (
    "roomId" TEXT NOT NULL,
    "share" INTEGER NOT NULL DEFAULT 0,
    "count" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "RoomParticipantRows_pkey" PRIMARY KEY ("roomId", "share")
);

ALTER TABLE "RoomParticipantRows" ADD CONSTRAINT "RoomParticipantRows_roomId_fkey" FOREIGN KEY ("roomId") REFERENCES "Room"("id") ON DELETE CASCADE ON UPDATE CASCADE;

INSERT INTO "RoomParticipantRows" ("roomId", "share", "count")
  SELECT id, 0, "participantRows" FROM "Room" WHERE "participantRows" > 0;

-- A connection's share of a room's count: the same for every insert the connection makes.
CREATE FUNCTION convene_participant_rows_share() RETURNS int AS $$
  SELECT pg_backend_pid() % 8
$$ LANGUAGE sql STABLE;

CREATE OR REPLACE FUNCTION convene_count_participant_row() RETURNS trigger AS $$
BEGIN
  UPDATE "RoomParticipantRows" SET "count" = "count" + 1
    WHERE "roomId" = NEW."roomId" AND share = convene_participant_rows_share();
  IF NOT FOUND THEN
    INSERT INTO "RoomParticipantRows" ("roomId", share, "count") VALUES (NEW."roomId", convene_participant_rows_share(), 1)
      ON CONFLICT ("roomId", share) DO UPDATE SET "count" = "RoomParticipantRows"."count" + 1;
  END IF;
  RETURN NULL;
END
$$ LANGUAGE plpgsql;

CREATE OR REPLACE FUNCTION convene_join(
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
  inserted int;
  taken int;
  my_share int := convene_participant_rows_share();
  shared boolean;
BEGIN
  -- Far from its cap (more than 8 rows of headroom, read without a lock), a room takes joins side
  -- by side: each holds the room row FOR SHARE, so a change to the room (lock, end, settings)
  -- still waits for the joins in flight and they for it, but joins do not wait for each other.
  -- Near or at its cap, a join holds the room FOR UPDATE, alone, and counts exactly, as before.
  SELECT least(x."maxParticipants", p_plan_cap) - coalesce((SELECT sum(c."count") FROM "RoomParticipantRows" c WHERE c."roomId" = x.id), 0) > 8
    INTO shared FROM "Room" x WHERE x.id = p_room_id AND x."tenantId" = p_tenant_id;
  IF NOT FOUND THEN RETURN json_build_object('outcome', 'not_found'); END IF;
  IF shared THEN
    SELECT * INTO r FROM "Room" WHERE id = p_room_id AND "tenantId" = p_tenant_id FOR SHARE;
  ELSE
    SELECT * INTO r FROM "Room" WHERE id = p_room_id AND "tenantId" = p_tenant_id FOR UPDATE;
  END IF;
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

-- convene_create_room inserts a whole Room row from JSON: with the column gone, the app stops sending it.
ALTER TABLE "Room" DROP COLUMN "participantRows";
