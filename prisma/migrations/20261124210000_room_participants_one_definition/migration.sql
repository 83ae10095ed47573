-- "A room's first participants present or on their way in, in join order" had two definitions:
-- convene_room_participants (GET /rooms, GET /rooms/{id}, a Call's room, the transactional join)
-- and convene_room_page (the join's list with each row's version, migration join_room_version).
-- convene_room_participants now reads through convene_room_page, so the rule is written once.
-- Both are SQL functions PostgreSQL inlines: the plan is the same ordered walk of the partial
-- index of present participants, a few index entries per room.
CREATE OR REPLACE FUNCTION convene_room_participants(p_room_ids text[], p_limit int) RETURNS SETOF "Participant" AS $$
  SELECT (l.participant).* FROM unnest(p_room_ids) AS room(id)
  CROSS JOIN LATERAL convene_room_page(room.id, p_limit) l
$$ LANGUAGE sql STABLE;
