CREATE OR REPLACE FUNCTION convene_sessions_started() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
  PERFORM convene_move_usage(NEW."tenantId",
    CASE WHEN TG_OP = 'UPDATE' THEN 'sessions_started' END, CASE WHEN TG_OP = 'UPDATE' THEN OLD."startedAt"::date END, 1,
    'sessions_started', NEW."startedAt"::date, 1);
  RETURN NULL;
END
$$;
