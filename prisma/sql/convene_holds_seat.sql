-- The seat rule, the one definition of it: a participant holds a seat when approved and either
-- connected or handed a token after `hold_since` (an unconnected participant holds its seat for a
-- while). Used by the join (convene_seat_free) and by the call UI's entry check (lib/domain).
CREATE OR REPLACE FUNCTION convene_holds_seat(p "Participant", hold_since timestamp(3)) RETURNS boolean
    LANGUAGE sql IMMUTABLE
    AS $$
  SELECT p."isApproved" AND (p."connectionState" = 'CONNECTED' OR (p."connectionState" = 'PENDING' AND p."tokenIssuedAt" > hold_since))
$$;
