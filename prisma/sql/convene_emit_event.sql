-- The transactional outbox's one write: the event, and a delivery when the tenant has a webhook
-- URL whose filter takes the event (or `p_force`, the test endpoint). Called in the transaction
-- of the change it reports, by lib/events/outbox.ts and by the join (participant.waiting).
-- Event.roomId is set by the "Event_roomId" trigger from data.roomId.
CREATE OR REPLACE FUNCTION convene_emit_event(p_event_id text, p_tenant_id text, p_name text, p_data jsonb, p_occurred_at timestamp(3), p_delivery_id text, p_force boolean) RETURNS boolean
    LANGUAGE plpgsql
    AS $$
DECLARE
  hook_url text;
  subscribed boolean;
BEGIN
  INSERT INTO "Event" (id, "tenantId", name, data, "occurredAt") VALUES (p_event_id, p_tenant_id, p_name, p_data, p_occurred_at);
  SELECT t."webhookUrl", p_force OR t."webhookEvents" IS NULL OR jsonb_typeof(t."webhookEvents") = 'null' OR t."webhookEvents" ? p_name
    INTO hook_url, subscribed FROM "Tenant" t WHERE t.id = p_tenant_id;
  IF coalesce(hook_url, '') = '' OR NOT subscribed THEN RETURN false; END IF;
  INSERT INTO "WebhookDelivery" (id, "tenantId", "eventId", "eventName", url, status, "nextAttemptAt", "updatedAt")
    VALUES (p_delivery_id, p_tenant_id, p_event_id, p_name, hook_url, 'PENDING', p_occurred_at, p_occurred_at);
  RETURN true;
END
$$;
