CREATE OR REPLACE FUNCTION convene_lease_deliveries(p_limit integer, p_lease_seconds double precision, p_tenant_cap integer) RETURNS TABLE(id text, "tenantId" text, status text, "attemptCount" integer, url text, "webhookSecretEncrypted" text, "webhookSecretPreviousEncrypted" text, "webhookSecretPreviousExpiresAt" timestamp without time zone, event json)
    LANGUAGE plpgsql
    AS $$
#variable_conflict use_column
BEGIN
  PERFORM 1 FROM "WebhookDelivery" d WHERE d.status IN ('PENDING', 'RETRYING') AND d."nextAttemptAt" <= now()
    AND (d."leasedUntil" IS NULL OR d."leasedUntil" <= now()) LIMIT 1;
  IF NOT FOUND OR NOT pg_try_advisory_xact_lock(7311001) THEN RETURN; END IF;
  RETURN QUERY
    WITH RECURSIVE tenants AS (
      (SELECT d."tenantId" FROM "WebhookDelivery" d WHERE d.status IN ('PENDING', 'RETRYING') ORDER BY d."tenantId" LIMIT 1)
      UNION ALL
      SELECT (SELECT d."tenantId" FROM "WebhookDelivery" d
              WHERE d.status IN ('PENDING', 'RETRYING') AND d."tenantId" > t."tenantId"
              ORDER BY d."tenantId" LIMIT 1)
      FROM tenants t WHERE t."tenantId" IS NOT NULL
    ), inflight AS (
      SELECT d."tenantId", count(*)::int AS n FROM "WebhookDelivery" d
      WHERE d.status IN ('PENDING', 'RETRYING') AND d."leasedUntil" IS NOT NULL AND d."leasedUntil" > now()
      GROUP BY d."tenantId"
    ), due AS (
      SELECT next.id, next."nextAttemptAt"
      FROM tenants t
      LEFT JOIN inflight ON inflight."tenantId" = t."tenantId"
      CROSS JOIN LATERAL (
        SELECT d.id, d."nextAttemptAt" FROM "WebhookDelivery" d
        WHERE d."tenantId" = t."tenantId" AND d.status IN ('PENDING', 'RETRYING') AND d."nextAttemptAt" <= now()
          AND (d."leasedUntil" IS NULL OR d."leasedUntil" <= now())
        ORDER BY d."nextAttemptAt"
        LIMIT GREATEST(p_tenant_cap - COALESCE(inflight.n, 0), 0)
      ) next
      WHERE t."tenantId" IS NOT NULL
      ORDER BY next."nextAttemptAt"
      LIMIT p_limit
    )
    UPDATE "WebhookDelivery" AS d
    SET "leasedUntil" = now() + make_interval(secs => p_lease_seconds)
    FROM due, "Event" e, "Tenant" t
    WHERE d.id = due.id AND d.status IN ('PENDING', 'RETRYING') AND (d."leasedUntil" IS NULL OR d."leasedUntil" <= now())
      AND e.id = d."eventId" AND t.id = d."tenantId"
    RETURNING d.id, d."tenantId", d.status::text, d."attemptCount", d.url,
      t."webhookSecretEncrypted", t."webhookSecretPreviousEncrypted", t."webhookSecretPreviousExpiresAt",
      json_build_object('id', e.id, 'name', e.name, 'occurredAt', e."occurredAt" AT TIME ZONE 'UTC', 'data', e.data);
END
$$;
