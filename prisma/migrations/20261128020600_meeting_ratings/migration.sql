-- A participant's 1–5 rating of a meeting they were in (the hosted call UI's end screen): one per
-- participant and session, the latest kept (lib/domain/meeting-tools.ts); it goes with the participant.
CREATE TABLE "MeetingRating" (
    "id" TEXT NOT NULL,
    "tenantId" TEXT NOT NULL,
    "roomId" TEXT NOT NULL,
    "participantId" TEXT NOT NULL,
    "sessionId" TEXT,
    "rating" INTEGER NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "MeetingRating_pkey" PRIMARY KEY ("id"),
    -- The API refuses anything else (ratingInput); the table holds to it too.
    CONSTRAINT "MeetingRating_rating_check" CHECK ("rating" BETWEEN 1 AND 5)
);

CREATE INDEX "MeetingRating_participantId_sessionId_idx" ON "MeetingRating"("participantId", "sessionId");

CREATE INDEX "MeetingRating_roomId_createdAt_idx" ON "MeetingRating"("roomId", "createdAt");

ALTER TABLE "MeetingRating" ADD CONSTRAINT "MeetingRating_participantId_fkey" FOREIGN KEY ("participantId") REFERENCES "Participant"("id") ON DELETE CASCADE ON UPDATE CASCADE;
