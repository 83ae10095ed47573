CREATE OR REPLACE FUNCTION convene_move_usage(p_tenant text, p_metric_old text, p_day_old date, p_old bigint, p_metric_new text, p_day_new date, p_new bigint) RETURNS void
    LANGUAGE plpgsql
    AS $$
BEGIN
  IF p_metric_old IS NOT DISTINCT FROM p_metric_new AND p_day_old IS NOT DISTINCT FROM p_day_new THEN
    IF p_metric_new IS NOT NULL AND p_day_new IS NOT NULL AND p_new - p_old <> 0 THEN
      PERFORM convene_add_usage(p_tenant, p_day_new, p_metric_new, p_new - p_old);
    END IF;
    RETURN;
  END IF;
  IF p_metric_old IS NOT NULL AND p_day_old IS NOT NULL AND p_old <> 0 THEN
    PERFORM convene_add_usage(p_tenant, p_day_old, p_metric_old, -p_old);
  END IF;
  IF p_metric_new IS NOT NULL AND p_day_new IS NOT NULL AND p_new <> 0 THEN
    PERFORM convene_add_usage(p_tenant, p_day_new, p_metric_new, p_new);
  END IF;
END
$$;
