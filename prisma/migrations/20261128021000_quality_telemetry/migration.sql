-- Call quality telemetry (lib/domain/quality.ts): one series per participant per session, and its samples.
-- CreateTable
CREATE TABLE "QualitySeries" (
    "id" TEXT NOT NULL,
    "tenantId" TEXT NOT NULL,
    "roomId" TEXT NOT NULL,
    "sessionId" TEXT NOT NULL,
    "participantId" TEXT NOT NULL,
    "sampleCount" INTEGER NOT NULL DEFAULT 0,
    "browser" TEXT,
    "os" TEXT,
    "networkType" TEXT,
    "firstAt" TIMESTAMP(3) NOT NULL,
    "lastAt" TIMESTAMP(3) NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "QualitySeries_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "QualitySample" (
    "id" BIGSERIAL NOT NULL,
    "seriesId" TEXT NOT NULL,
    "at" TIMESTAMP(3) NOT NULL,
    "intervalMs" INTEGER NOT NULL,
    "score" INTEGER,
    "sendKbps" REAL,
    "recvKbps" REAL,
    "sendLossPct" REAL,
    "recvLossPct" REAL,
    "rttMs" REAL,
    "jitterMs" REAL,
    "sendFps" REAL,
    "sendHeight" INTEGER,
    "recvFps" REAL,
    "concealedPct" REAL,
    "availableOutKbps" REAL,
    "limitation" TEXT,
    "limitedPct" REAL,
    "detail" JSONB NOT NULL,

    CONSTRAINT "QualitySample_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "QualitySeries_createdAt_idx" ON "QualitySeries"("createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "QualitySeries_sessionId_participantId_key" ON "QualitySeries"("sessionId", "participantId");

-- CreateIndex
CREATE INDEX "QualitySample_seriesId_at_idx" ON "QualitySample"("seriesId", "at");

-- CreateIndex
CREATE INDEX "QualitySample_at_idx" ON "QualitySample"("at");

-- AddForeignKey
ALTER TABLE "QualitySeries" ADD CONSTRAINT "QualitySeries_sessionId_fkey" FOREIGN KEY ("sessionId") REFERENCES "RoomSession"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "QualitySample" ADD CONSTRAINT "QualitySample_seriesId_fkey" FOREIGN KEY ("seriesId") REFERENCES "QualitySeries"("id") ON DELETE CASCADE ON UPDATE CASCADE;

