CREATE OR REPLACE FUNCTION convene_notify_credentials() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
  PERFORM pg_notify('convene_credentials', TG_TABLE_NAME);
  RETURN NULL;
END
$$;
