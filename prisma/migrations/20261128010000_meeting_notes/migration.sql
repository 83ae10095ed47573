-- Meeting notes (issue 44): per-participant recordings, speaker-attributed transcripts (from
-- participant recordings or live captions), their retries, and AI summaries.

-- CreateEnum
CREATE TYPE "RecordingKind" AS ENUM ('COMPOSITE', 'PARTICIPANT');

-- CreateEnum
CREATE TYPE "TranscriptSource" AS ENUM ('RECORDING', 'PARTICIPANT_RECORDINGS', 'CAPTIONS');

-- CreateEnum
CREATE TYPE "SummaryStatus" AS ENUM ('PENDING', 'PROCESSING', 'COMPLETED', 'FAILED');

-- AlterEnum
ALTER TYPE "TranscriptStatus" ADD VALUE 'LIVE';

-- AlterTable
ALTER TABLE "Recording" ADD COLUMN     "audioOnly" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "kind" "RecordingKind" NOT NULL DEFAULT 'COMPOSITE',
ADD COLUMN     "participantId" TEXT,
ADD COLUMN     "participantIdentity" TEXT,
ADD COLUMN     "sessionId" TEXT,
ADD COLUMN     "speakerTranscriptId" TEXT;

-- AlterTable
ALTER TABLE "Transcript" ADD COLUMN     "attempts" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "model" TEXT,
ADD COLUMN     "nextAttemptAt" TIMESTAMP(3),
ADD COLUMN     "recordingIds" TEXT[] DEFAULT ARRAY[]::TEXT[],
ADD COLUMN     "sessionId" TEXT,
ADD COLUMN     "source" "TranscriptSource" NOT NULL DEFAULT 'RECORDING',
ALTER COLUMN "recordingId" DROP NOT NULL;

-- CreateTable
CREATE TABLE "LiveTranscriptSegment" (
    "id" TEXT NOT NULL,
    "transcriptId" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "speakerIdentity" TEXT NOT NULL,
    "participantId" TEXT,
    "speakerName" TEXT NOT NULL,
    "externalUserId" TEXT,
    "text" TEXT NOT NULL,
    "startedAt" TIMESTAMP(3) NOT NULL,
    "endedAt" TIMESTAMP(3) NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "LiveTranscriptSegment_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Summary" (
    "id" TEXT NOT NULL,
    "tenantId" TEXT NOT NULL,
    "roomId" TEXT NOT NULL,
    "sessionId" TEXT,
    "transcriptId" TEXT NOT NULL,
    "status" "SummaryStatus" NOT NULL DEFAULT 'PENDING',
    "kind" TEXT NOT NULL,
    "instruction" TEXT,
    "language" TEXT,
    "content" JSONB,
    "provider" TEXT,
    "model" TEXT,
    "error" TEXT,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "nextAttemptAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    "completedAt" TIMESTAMP(3),

    CONSTRAINT "Summary_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "SummarySettings" (
    "tenantId" TEXT NOT NULL,
    "kind" TEXT NOT NULL DEFAULT 'general',
    "instruction" TEXT,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "SummarySettings_pkey" PRIMARY KEY ("tenantId")
);

-- CreateIndex
CREATE INDEX "LiveTranscriptSegment_transcriptId_startedAt_idx" ON "LiveTranscriptSegment"("transcriptId", "startedAt");

-- CreateIndex
CREATE UNIQUE INDEX "LiveTranscriptSegment_transcriptId_key_key" ON "LiveTranscriptSegment"("transcriptId", "key");

-- CreateIndex
CREATE INDEX "Summary_transcriptId_createdAt_idx" ON "Summary"("transcriptId", "createdAt");

-- CreateIndex
CREATE INDEX "Summary_tenantId_createdAt_idx" ON "Summary"("tenantId", "createdAt");

-- CreateIndex
CREATE INDEX "Summary_retry_due_idx" ON "Summary"("nextAttemptAt") WHERE ("nextAttemptAt" IS NOT NULL);

-- CreateIndex
CREATE INDEX "Transcript_roomId_createdAt_idx" ON "Transcript"("roomId", "createdAt");

-- CreateIndex
CREATE INDEX "Transcript_sessionId_idx" ON "Transcript"("sessionId");

-- CreateIndex
CREATE INDEX "Transcript_retry_due_idx" ON "Transcript"("nextAttemptAt") WHERE ("nextAttemptAt" IS NOT NULL);

-- AddForeignKey
ALTER TABLE "Transcript" ADD CONSTRAINT "Transcript_roomId_fkey" FOREIGN KEY ("roomId") REFERENCES "Room"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "LiveTranscriptSegment" ADD CONSTRAINT "LiveTranscriptSegment_transcriptId_fkey" FOREIGN KEY ("transcriptId") REFERENCES "Transcript"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Summary" ADD CONSTRAINT "Summary_transcriptId_fkey" FOREIGN KEY ("transcriptId") REFERENCES "Transcript"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "SummarySettings" ADD CONSTRAINT "SummarySettings_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE;


