CREATE OR REPLACE FUNCTION convene_add_usage(p_tenant text, p_day date, p_metric text, p_amount bigint) RETURNS void
    LANGUAGE sql
    AS $$
  INSERT INTO "UsageCounter" ("tenantId", day, metric, value) VALUES (p_tenant, p_day, p_metric, p_amount)
  ON CONFLICT ("tenantId", day, metric) DO UPDATE SET value = "UsageCounter".value + EXCLUDED.value
$$;
