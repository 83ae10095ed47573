CREATE OR REPLACE FUNCTION convene_count_open_rooms() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
DECLARE
  delta int := 0;
  tenant text;
BEGIN
  IF TG_OP IN ('INSERT', 'UPDATE') AND NEW.status IN ('WAITING', 'ACTIVE') THEN delta := delta + 1; END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') AND OLD.status IN ('WAITING', 'ACTIVE') THEN delta := delta - 1; END IF;
  IF delta = 0 THEN RETURN NULL; END IF;
  tenant := CASE WHEN TG_OP = 'DELETE' THEN OLD."tenantId" ELSE NEW."tenantId" END;
  INSERT INTO "TenantRoomCount" AS c ("tenantId", "openRooms") VALUES (tenant, delta)
    ON CONFLICT ("tenantId") DO UPDATE SET "openRooms" = c."openRooms" + EXCLUDED."openRooms";
  RETURN NULL;
END
$$;
