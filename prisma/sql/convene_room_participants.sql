CREATE OR REPLACE FUNCTION convene_room_participants(p_room_ids text[], p_limit integer) RETURNS SETOF "Participant"
    LANGUAGE sql STABLE
    AS $$
  SELECT (l.participant).* FROM unnest(p_room_ids) AS room(id)
  CROSS JOIN LATERAL convene_room_page(room.id, p_limit) l
$$;
