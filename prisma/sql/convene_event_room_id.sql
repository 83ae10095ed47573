CREATE OR REPLACE FUNCTION convene_event_room_id() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
  NEW."roomId" := NEW.data->>'roomId';
  RETURN NEW;
END
$$;
