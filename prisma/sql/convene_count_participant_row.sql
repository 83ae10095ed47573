CREATE OR REPLACE FUNCTION convene_count_participant_row() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
  UPDATE "RoomParticipantRows" SET "count" = "count" + 1
    WHERE "roomId" = NEW."roomId" AND share = convene_participant_rows_share();
  IF NOT FOUND THEN
    INSERT INTO "RoomParticipantRows" ("roomId", share, "count") VALUES (NEW."roomId", convene_participant_rows_share(), 1)
      ON CONFLICT ("roomId", share) DO UPDATE SET "count" = "RoomParticipantRows"."count" + 1;
  END IF;
  RETURN NULL;
END
$$;
