CREATE OR REPLACE FUNCTION convene_webhook_outcomes() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
  PERFORM convene_move_usage(NEW."tenantId",
    CASE WHEN TG_OP = 'UPDATE' THEN
      CASE OLD.status WHEN 'DELIVERED' THEN 'webhooks_delivered' WHEN 'FAILED' THEN 'webhooks_failed' END
    END,
    CASE WHEN TG_OP = 'UPDATE' THEN OLD."createdAt"::date END, 1,
    CASE NEW.status WHEN 'DELIVERED' THEN 'webhooks_delivered' WHEN 'FAILED' THEN 'webhooks_failed' END,
    NEW."createdAt"::date, 1);
  RETURN NULL;
END
$$;
