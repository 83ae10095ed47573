-- Every app process caches tenant API key lookups (lib/runtime/credential-cache.ts) and drops
-- its cache when PostgreSQL says a credential changed. Triggers, not application code, send the
-- signal, so no writer (API, console, jobs, a manual UPDATE) can forget to.
CREATE FUNCTION convene_notify_credentials() RETURNS trigger AS $$
BEGIN
  PERFORM pg_notify('convene_credentials', TG_TABLE_NAME);
  RETURN NULL;
END
$$ LANGUAGE plpgsql;

-- lastUsedAt is deliberately absent: it changes once a minute per busy key and does not matter.
CREATE TRIGGER "ApiKey_credentials_changed"
  AFTER UPDATE OF "revokedAt", "expiresAt", "keyHash", "mode", "permissions", "tenantId", "rotatedToId" OR DELETE ON "ApiKey"
  FOR EACH STATEMENT EXECUTE FUNCTION convene_notify_credentials();

CREATE TRIGGER "Tenant_credentials_changed"
  AFTER UPDATE OR DELETE ON "Tenant"
  FOR EACH STATEMENT EXECUTE FUNCTION convene_notify_credentials();
