-- The delivery runner's lease query walks open deliveries tenant by tenant and counts leased ones;
-- these partial indexes hold only open rows, so its cost follows tenants and leases, not the backlog.

-- CreateIndex
CREATE INDEX "WebhookDelivery_open_tenantId_nextAttemptAt_idx" ON "WebhookDelivery"("tenantId", "nextAttemptAt") WHERE (status IN ('PENDING', 'RETRYING'));

-- CreateIndex
CREATE INDEX "WebhookDelivery_open_leased_idx" ON "WebhookDelivery"("tenantId", "leasedUntil") WHERE (status IN ('PENDING', 'RETRYING') AND "leasedUntil" IS NOT NULL);
