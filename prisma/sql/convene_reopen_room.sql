-- Re-opens an ENDED room (the caller holds its row FOR UPDATE): back to WAITING, a fresh start.
-- Used by POST /rooms/{id}/reopen and by a join into an ended room.
CREATE OR REPLACE FUNCTION convene_reopen_room(p_room_id text, p_now timestamp(3)) RETURNS "Room"
    LANGUAGE sql
    AS $$
  UPDATE "Room" SET status = 'WAITING', "reopenCount" = "reopenCount" + 1, "endedAt" = NULL, "startedAt" = NULL,
      duration = NULL, "activeParticipants" = 0, "updatedAt" = p_now
    WHERE id = p_room_id
    RETURNING *
$$;
