CREATE OR REPLACE FUNCTION convene_room_page(p_room_id text, p_limit integer) RETURNS TABLE(participant "Participant", version text)
    LANGUAGE sql STABLE
    AS $$
  SELECT x, x.id || '.' || x.xmin::text FROM "Participant" x
    WHERE x."roomId" = p_room_id AND x."connectionState" IN ('PENDING', 'WAITING', 'CONNECTED')
    ORDER BY x."createdAt", x.id LIMIT p_limit
$$;
