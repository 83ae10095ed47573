CREATE OR REPLACE FUNCTION convene_create_room(p_tenant_id text, p_limit integer, p_room jsonb) RETURNS jsonb
    LANGUAGE plpgsql
    AS $$
DECLARE
  open_rooms int;
  r "Room"%ROWTYPE;
BEGIN
  INSERT INTO "TenantRoomCount" ("tenantId", "openRooms") VALUES (p_tenant_id, 0) ON CONFLICT ("tenantId") DO NOTHING;
  SELECT "openRooms" INTO open_rooms FROM "TenantRoomCount" WHERE "tenantId" = p_tenant_id FOR UPDATE;
  IF open_rooms >= p_limit THEN RETURN jsonb_build_object('outcome', 'limit'); END IF;
  INSERT INTO "Room" SELECT * FROM jsonb_populate_record(NULL::"Room", p_room) RETURNING * INTO r;
  RETURN jsonb_build_object('outcome', 'ok', 'room', to_jsonb(r));
END
$$;
