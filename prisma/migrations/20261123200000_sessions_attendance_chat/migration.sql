-- CreateTable
CREATE TABLE "RoomSession" (
    "id" TEXT NOT NULL,
    "tenantId" TEXT NOT NULL,
    "roomId" TEXT NOT NULL,
    "startedAt" TIMESTAMP(3) NOT NULL,
    "endedAt" TIMESTAMP(3),
    "duration" INTEGER,
    "peakParticipants" INTEGER NOT NULL DEFAULT 0,
    "uniqueAttendees" INTEGER NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "RoomSession_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "SessionConnection" (
    "id" TEXT NOT NULL,
    "sessionId" TEXT NOT NULL,
    "tenantId" TEXT NOT NULL,
    "roomId" TEXT NOT NULL,
    "participantId" TEXT NOT NULL,
    "connectionKey" TEXT NOT NULL,
    "joinedAt" TIMESTAMP(3),
    "leftAt" TIMESTAMP(3),
    "closedBy" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "SessionConnection_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ChatMessage" (
    "id" TEXT NOT NULL,
    "seq" SERIAL NOT NULL,
    "tenantId" TEXT NOT NULL,
    "roomId" TEXT NOT NULL,
    "sessionId" TEXT,
    "senderParticipantId" TEXT NOT NULL,
    "senderExternalId" TEXT NOT NULL,
    "senderName" TEXT NOT NULL,
    "toParticipantId" TEXT,
    "toExternalId" TEXT,
    "text" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ChatMessage_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "RoomSession_tenantId_startedAt_idx" ON "RoomSession"("tenantId", "startedAt");

-- CreateIndex
CREATE INDEX "RoomSession_roomId_startedAt_idx" ON "RoomSession"("roomId", "startedAt");

-- CreateIndex
CREATE INDEX "SessionConnection_sessionId_idx" ON "SessionConnection"("sessionId");

-- CreateIndex
CREATE INDEX "SessionConnection_tenantId_leftAt_idx" ON "SessionConnection"("tenantId", "leftAt");

-- CreateIndex
CREATE UNIQUE INDEX "SessionConnection_participantId_connectionKey_key" ON "SessionConnection"("participantId", "connectionKey");

-- CreateIndex
CREATE INDEX "ChatMessage_roomId_seq_idx" ON "ChatMessage"("roomId", "seq");

-- CreateIndex
CREATE INDEX "ChatMessage_tenantId_createdAt_idx" ON "ChatMessage"("tenantId", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "ChatMessage_seq_key" ON "ChatMessage"("seq");

-- AddForeignKey
ALTER TABLE "RoomSession" ADD CONSTRAINT "RoomSession_roomId_fkey" FOREIGN KEY ("roomId") REFERENCES "Room"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "SessionConnection" ADD CONSTRAINT "SessionConnection_sessionId_fkey" FOREIGN KEY ("sessionId") REFERENCES "RoomSession"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ChatMessage" ADD CONSTRAINT "ChatMessage_roomId_fkey" FOREIGN KEY ("roomId") REFERENCES "Room"("id") ON DELETE CASCADE ON UPDATE CASCADE;


