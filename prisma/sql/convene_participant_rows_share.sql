CREATE OR REPLACE FUNCTION convene_participant_rows_share() RETURNS integer
    LANGUAGE sql STABLE
    AS $$
  SELECT pg_backend_pid() % 8
$$;
