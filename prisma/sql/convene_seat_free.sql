-- Whether a seat is free in a room for this user. The room's participant rows ever inserted
-- (RoomParticipantRows, kept by a trigger) bound the seats taken: while they are fewer than the
-- cap a seat is free without counting, so a room of thousands reads a few rows, not the room;
-- only from there on are the others' seats counted. Exact when the caller holds the room row
-- FOR UPDATE (every join into the room has committed).
CREATE OR REPLACE FUNCTION convene_seat_free(p_room_id text, p_external_user_id text, p_cap integer, p_hold_since timestamp(3)) RETURNS boolean
    LANGUAGE sql STABLE
    AS $$
  SELECT coalesce((SELECT sum(c."count") FROM "RoomParticipantRows" c WHERE c."roomId" = p_room_id), 0) < p_cap
      OR (SELECT count(*) FROM "Participant" s
            WHERE s."roomId" = p_room_id AND s."externalUserId" <> p_external_user_id
              AND convene_holds_seat(s, p_hold_since)) < p_cap
$$;
