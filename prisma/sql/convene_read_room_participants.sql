CREATE OR REPLACE FUNCTION convene_read_room_participants(p_room_ids text[], p_limit integer) RETURNS SETOF "Participant"
    LANGUAGE plpgsql STABLE
    SET enable_sort TO 'off'
    AS $$
BEGIN
  RETURN QUERY SELECT * FROM convene_room_participants(p_room_ids, p_limit);
END
$$;
