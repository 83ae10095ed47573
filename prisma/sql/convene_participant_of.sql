CREATE OR REPLACE FUNCTION convene_participant_of(p_room_id text, p_external_user_id text) RETURNS SETOF "Participant"
    LANGUAGE plpgsql STABLE
    SET enable_sort TO 'off'
    SET enable_incremental_sort TO 'off'
    AS $$
BEGIN
  RETURN QUERY SELECT * FROM "Participant"
    WHERE ("roomId", "externalUserId") BETWEEN (p_room_id, p_external_user_id) AND (p_room_id, p_external_user_id)
    ORDER BY "roomId", "externalUserId" LIMIT 1;
END
$$;
