CREATE OR REPLACE FUNCTION convene_participant_seconds() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
  PERFORM convene_move_usage(NEW."tenantId",
    CASE WHEN TG_OP = 'UPDATE' AND OLD.duration IS NOT NULL THEN 'participant_seconds' END,
    CASE WHEN TG_OP = 'UPDATE' THEN OLD."leftAt"::date END,
    CASE WHEN TG_OP = 'UPDATE' THEN coalesce(OLD.duration, 0) ELSE 0 END,
    CASE WHEN NEW.duration IS NOT NULL THEN 'participant_seconds' END, NEW."leftAt"::date, coalesce(NEW.duration, 0));
  RETURN NULL;
END
$$;
