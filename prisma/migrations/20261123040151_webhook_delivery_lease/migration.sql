-- AlterTable
ALTER TABLE "WebhookDelivery" ADD COLUMN     "leasedUntil" TIMESTAMP(3),
ADD COLUMN     "replayOfId" TEXT;

-- CreateIndex
CREATE INDEX "WebhookDelivery_tenantId_eventName_createdAt_idx" ON "WebhookDelivery"("tenantId", "eventName", "createdAt");
