-- Convene's schema as of its first release: tables, indexes and constraints; the database's
-- functions (their source is prisma/sql/, one file each: scripts/sql-functions.ts); and the
-- triggers that call them. Later changes are migrations of their own.

CREATE TYPE "BreakoutStatus" AS ENUM (
    'OPEN',
    'CLOSED'
);

CREATE TYPE "CallStatus" AS ENUM (
    'QUEUED',
    'RINGING',
    'ACCEPTED',
    'ENDED',
    'CANCELLED',
    'MISSED'
);

CREATE TYPE "CaptionStatus" AS ENUM (
    'ACTIVE',
    'STOPPED'
);

CREATE TYPE "ConnectionState" AS ENUM (
    'PENDING',
    'WAITING',
    'CONNECTED',
    'DISCONNECTED',
    'DENIED',
    'REMOVED'
);

CREATE TYPE "ConsoleRole" AS ENUM (
    'OWNER',
    'ADMIN',
    'VIEWER'
);

CREATE TYPE "DeliveryStatus" AS ENUM (
    'PENDING',
    'RETRYING',
    'DELIVERED',
    'FAILED'
);

CREATE TYPE "EgressJobStatus" AS ENUM (
    'STARTING',
    'ACTIVE',
    'STOPPING',
    'COMPLETED',
    'FAILED'
);

CREATE TYPE "IngressInputType" AS ENUM (
    'RTMP',
    'WHIP'
);

CREATE TYPE "IngressStatus" AS ENUM (
    'CREATED',
    'ACTIVE',
    'ENDED',
    'DELETED'
);

CREATE TYPE "KeyMode" AS ENUM (
    'LIVE',
    'TEST'
);

CREATE TYPE "ParticipantRole" AS ENUM (
    'HOST',
    'MODERATOR',
    'ATTENDEE',
    'VIEWER'
);

CREATE TYPE "PollStatus" AS ENUM (
    'DRAFT',
    'OPEN',
    'CLOSED'
);

CREATE TYPE "QuestionStatus" AS ENUM (
    'OPEN',
    'ANSWERED',
    'DISMISSED'
);

CREATE TYPE "RoomStatus" AS ENUM (
    'WAITING',
    'ACTIVE',
    'ENDED'
);

CREATE TYPE "RoomType" AS ENUM (
    'INSTANT',
    'SCHEDULED',
    'CALL',
    'BREAKOUT'
);

CREATE TYPE "TenantStatus" AS ENUM (
    'ACTIVE',
    'SUSPENDED'
);

CREATE TYPE "TranscriptStatus" AS ENUM (
    'PENDING',
    'PROCESSING',
    'COMPLETED',
    'FAILED'
);

CREATE TABLE "Participant" (
    id text NOT NULL,
    "roomId" text NOT NULL,
    "tenantId" text NOT NULL,
    "externalUserId" text NOT NULL,
    "displayName" text NOT NULL,
    "avatarUrl" text,
    "mediaIdentity" text NOT NULL,
    "mediaSid" text,
    role "ParticipantRole" DEFAULT 'ATTENDEE'::"ParticipantRole" NOT NULL,
    "canPublish" boolean DEFAULT true NOT NULL,
    "canSubscribe" boolean DEFAULT true NOT NULL,
    "canPublishData" boolean DEFAULT true NOT NULL,
    "canScreenShare" boolean DEFAULT false NOT NULL,
    "canRecord" boolean DEFAULT false NOT NULL,
    "isApproved" boolean DEFAULT true NOT NULL,
    "approvedBy" text,
    "connectionState" "ConnectionState" DEFAULT 'PENDING'::"ConnectionState" NOT NULL,
    "joinedAt" timestamp(3) without time zone,
    "leftAt" timestamp(3) without time zone,
    duration integer,
    "rejoinCount" integer DEFAULT 0 NOT NULL,
    "externalRole" text,
    "externalMetadata" jsonb,
    "admissionSecretHash" text,
    "breakoutId" text,
    "createdAt" timestamp(3) without time zone DEFAULT CURRENT_TIMESTAMP NOT NULL,
    "updatedAt" timestamp(3) without time zone NOT NULL,
    "tokenIssuedAt" timestamp(3) without time zone
);

CREATE TABLE "Account" (
    id text NOT NULL,
    "userId" text NOT NULL,
    type text NOT NULL,
    provider text NOT NULL,
    "providerAccountId" text NOT NULL,
    refresh_token text,
    access_token text,
    expires_at integer,
    token_type text,
    scope text,
    id_token text,
    session_state text
);

CREATE TABLE "ApiKey" (
    id text NOT NULL,
    "tenantId" text NOT NULL,
    name text,
    mode "KeyMode" NOT NULL,
    "keyHash" text NOT NULL,
    "keyHint" text NOT NULL,
    permissions text[],
    "expiresAt" timestamp(3) without time zone,
    "revokedAt" timestamp(3) without time zone,
    "lastUsedAt" timestamp(3) without time zone,
    "rotatedToId" text,
    "createdAt" timestamp(3) without time zone DEFAULT CURRENT_TIMESTAMP NOT NULL
);

CREATE TABLE "Breakout" (
    id text NOT NULL,
    "roomId" text NOT NULL,
    "tenantId" text NOT NULL,
    name text NOT NULL,
    "mediaRoomName" text NOT NULL,
    status "BreakoutStatus" DEFAULT 'OPEN'::"BreakoutStatus" NOT NULL,
    "createdByExternalId" text NOT NULL,
    "createdAt" timestamp(3) without time zone DEFAULT CURRENT_TIMESTAMP NOT NULL,
    "closedAt" timestamp(3) without time zone
);

CREATE TABLE "Call" (
    id text NOT NULL,
    "tenantId" text NOT NULL,
    "roomId" text,
    "callerExternalId" text NOT NULL,
    "callerDisplayName" text NOT NULL,
    "callerMetadata" jsonb,
    "targetExternalId" text,
    "targetDisplayName" text,
    "queueName" text DEFAULT 'default'::text NOT NULL,
    priority integer DEFAULT 0 NOT NULL,
    skills text[] DEFAULT ARRAY[]::text[],
    status "CallStatus" DEFAULT 'QUEUED'::"CallStatus" NOT NULL,
    "ringingExternalId" text,
    "acceptedByExternalId" text,
    "acceptedByDisplayName" text,
    "forwardedToExternalId" text,
    "forwardedByExternalId" text,
    "queuedAt" timestamp(3) without time zone DEFAULT CURRENT_TIMESTAMP NOT NULL,
    "ringingAt" timestamp(3) without time zone,
    "answeredAt" timestamp(3) without time zone,
    "endedAt" timestamp(3) without time zone,
    "cancelledAt" timestamp(3) without time zone,
    "waitDuration" integer,
    "callDuration" integer,
    "externalId" text,
    "externalMetadata" jsonb,
    notes text,
    "createdAt" timestamp(3) without time zone DEFAULT CURRENT_TIMESTAMP NOT NULL,
    "updatedAt" timestamp(3) without time zone NOT NULL
);

CREATE TABLE "CaptionSession" (
    id text NOT NULL,
    "tenantId" text NOT NULL,
    "roomId" text NOT NULL,
    language text DEFAULT 'en'::text NOT NULL,
    status "CaptionStatus" DEFAULT 'ACTIVE'::"CaptionStatus" NOT NULL,
    "mediaDispatchId" text,
    "startedByExternalId" text,
    "startedAt" timestamp(3) without time zone DEFAULT CURRENT_TIMESTAMP NOT NULL,
    "stoppedAt" timestamp(3) without time zone
);

CREATE TABLE "ChatMessage" (
    id text NOT NULL,
    seq integer NOT NULL,
    "tenantId" text NOT NULL,
    "roomId" text NOT NULL,
    "sessionId" text,
    "senderParticipantId" text NOT NULL,
    "senderExternalId" text NOT NULL,
    "senderName" text NOT NULL,
    "toParticipantId" text,
    "toExternalId" text,
    text text NOT NULL,
    "createdAt" timestamp(3) without time zone DEFAULT CURRENT_TIMESTAMP NOT NULL
);

CREATE SEQUENCE "ChatMessage_seq_seq"
    AS integer
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;

ALTER SEQUENCE "ChatMessage_seq_seq" OWNED BY "ChatMessage".seq;

CREATE TABLE "Event" (
    id text NOT NULL,
    "tenantId" text NOT NULL,
    name text NOT NULL,
    data jsonb NOT NULL,
    "occurredAt" timestamp(3) without time zone NOT NULL,
    "createdAt" timestamp(3) without time zone DEFAULT CURRENT_TIMESTAMP NOT NULL,
    "roomId" text
);

CREATE TABLE "IdempotencyRecord" (
    id text NOT NULL,
    scope text NOT NULL,
    key text NOT NULL,
    method text NOT NULL,
    path text NOT NULL,
    "requestHash" text NOT NULL,
    "responseStatus" integer,
    "responseBody" text,
    "createdAt" timestamp(3) without time zone DEFAULT CURRENT_TIMESTAMP NOT NULL,
    "expiresAt" timestamp(3) without time zone NOT NULL
);

CREATE TABLE "IngressEndpoint" (
    id text NOT NULL,
    "tenantId" text NOT NULL,
    "roomId" text NOT NULL,
    "mediaIngressId" text NOT NULL,
    name text NOT NULL,
    "inputType" "IngressInputType" DEFAULT 'RTMP'::"IngressInputType" NOT NULL,
    "enableTranscoding" boolean DEFAULT true NOT NULL,
    "participantIdentity" text NOT NULL,
    "participantName" text NOT NULL,
    "ingressUrl" text,
    "streamKey" text,
    status "IngressStatus" DEFAULT 'CREATED'::"IngressStatus" NOT NULL,
    "createdByExternalId" text NOT NULL,
    "createdAt" timestamp(3) without time zone DEFAULT CURRENT_TIMESTAMP NOT NULL,
    "updatedAt" timestamp(3) without time zone NOT NULL
);

CREATE TABLE "MediaWebhookReceipt" (
    id text NOT NULL,
    event text NOT NULL,
    "receivedAt" timestamp(3) without time zone DEFAULT CURRENT_TIMESTAMP NOT NULL
);

CREATE TABLE "Poll" (
    id text NOT NULL,
    "roomId" text NOT NULL,
    "tenantId" text NOT NULL,
    question text NOT NULL,
    status "PollStatus" DEFAULT 'DRAFT'::"PollStatus" NOT NULL,
    "isAnonymous" boolean DEFAULT false NOT NULL,
    "allowMultiple" boolean DEFAULT false NOT NULL,
    "totalVotes" integer DEFAULT 0 NOT NULL,
    "createdByExternalId" text,
    "createdAt" timestamp(3) without time zone DEFAULT CURRENT_TIMESTAMP NOT NULL,
    "updatedAt" timestamp(3) without time zone NOT NULL,
    "openedAt" timestamp(3) without time zone,
    "closedAt" timestamp(3) without time zone
);

CREATE TABLE "PollOption" (
    id text NOT NULL,
    "pollId" text NOT NULL,
    text text NOT NULL,
    "order" integer NOT NULL,
    count integer DEFAULT 0 NOT NULL
);

CREATE TABLE "PollVote" (
    id text NOT NULL,
    "pollId" text NOT NULL,
    "optionId" text NOT NULL,
    "voterExternalId" text NOT NULL,
    "createdAt" timestamp(3) without time zone DEFAULT CURRENT_TIMESTAMP NOT NULL
);

CREATE TABLE "Provider" (
    id text NOT NULL,
    name text NOT NULL,
    "createdAt" timestamp(3) without time zone DEFAULT CURRENT_TIMESTAMP NOT NULL,
    "updatedAt" timestamp(3) without time zone NOT NULL,
    "defaultBranding" jsonb
);

CREATE TABLE "ProviderKey" (
    id text NOT NULL,
    "providerId" text NOT NULL,
    "keyHash" text NOT NULL,
    "keyHint" text NOT NULL,
    "expiresAt" timestamp(3) without time zone,
    "revokedAt" timestamp(3) without time zone,
    "lastUsedAt" timestamp(3) without time zone,
    "createdAt" timestamp(3) without time zone DEFAULT CURRENT_TIMESTAMP NOT NULL
);

CREATE TABLE "Question" (
    id text NOT NULL,
    "roomId" text NOT NULL,
    "tenantId" text NOT NULL,
    text text NOT NULL,
    status "QuestionStatus" DEFAULT 'OPEN'::"QuestionStatus" NOT NULL,
    "askerExternalId" text,
    "askerName" text,
    "upvoteCount" integer DEFAULT 0 NOT NULL,
    "answerText" text,
    "answeredByExternalId" text,
    "answeredAt" timestamp(3) without time zone,
    "dismissedByExternalId" text,
    "dismissedAt" timestamp(3) without time zone,
    "createdAt" timestamp(3) without time zone DEFAULT CURRENT_TIMESTAMP NOT NULL,
    "updatedAt" timestamp(3) without time zone NOT NULL
);

CREATE TABLE "QuestionUpvote" (
    id text NOT NULL,
    "questionId" text NOT NULL,
    "voterExternalId" text NOT NULL,
    "createdAt" timestamp(3) without time zone DEFAULT CURRENT_TIMESTAMP NOT NULL
);

CREATE TABLE "Recording" (
    id text NOT NULL,
    "tenantId" text NOT NULL,
    "roomId" text NOT NULL,
    "mediaEgressId" text NOT NULL,
    status "EgressJobStatus" DEFAULT 'STARTING'::"EgressJobStatus" NOT NULL,
    preset text,
    "storageKey" text NOT NULL,
    "sizeBytes" bigint,
    duration integer,
    "createdByExternalId" text,
    "startedAt" timestamp(3) without time zone,
    "endedAt" timestamp(3) without time zone,
    error text,
    "createdAt" timestamp(3) without time zone DEFAULT CURRENT_TIMESTAMP NOT NULL,
    "updatedAt" timestamp(3) without time zone NOT NULL
);

CREATE TABLE "Room" (
    id text NOT NULL,
    "tenantId" text NOT NULL,
    name text NOT NULL,
    slug text NOT NULL,
    "mediaRoomName" text NOT NULL,
    type "RoomType" DEFAULT 'INSTANT'::"RoomType" NOT NULL,
    "maxParticipants" integer DEFAULT 100 NOT NULL,
    "enableRecording" boolean DEFAULT false NOT NULL,
    "enableChat" boolean DEFAULT true NOT NULL,
    "enableScreenShare" boolean DEFAULT true NOT NULL,
    "enableWaitingRoom" boolean DEFAULT false NOT NULL,
    "enableE2EE" boolean DEFAULT false NOT NULL,
    "enableAiFeatures" boolean DEFAULT false NOT NULL,
    "allowPublicJoin" boolean DEFAULT false NOT NULL,
    "recordingPreset" text DEFAULT 'H264_720P_30'::text NOT NULL,
    "isLocked" boolean DEFAULT false NOT NULL,
    "autoRecord" boolean DEFAULT false NOT NULL,
    status "RoomStatus" DEFAULT 'WAITING'::"RoomStatus" NOT NULL,
    "scheduledAt" timestamp(3) without time zone,
    "startedAt" timestamp(3) without time zone,
    "autoEndAt" timestamp(3) without time zone,
    "endedAt" timestamp(3) without time zone,
    duration integer,
    "mediaSid" text,
    "activeParticipants" integer DEFAULT 0 NOT NULL,
    "reopenCount" integer DEFAULT 0 NOT NULL,
    "createdByExternalId" text NOT NULL,
    "externalId" text,
    "externalType" text,
    "externalMetadata" jsonb,
    "createdAt" timestamp(3) without time zone DEFAULT CURRENT_TIMESTAMP NOT NULL,
    "updatedAt" timestamp(3) without time zone NOT NULL
);

CREATE TABLE "RoomParticipantRows" (
    "roomId" text NOT NULL,
    share integer DEFAULT 0 NOT NULL,
    count integer DEFAULT 0 NOT NULL
);

CREATE TABLE "RoomSession" (
    id text NOT NULL,
    "tenantId" text NOT NULL,
    "roomId" text NOT NULL,
    "startedAt" timestamp(3) without time zone NOT NULL,
    "endedAt" timestamp(3) without time zone,
    duration integer,
    "peakParticipants" integer DEFAULT 0 NOT NULL,
    "uniqueAttendees" integer DEFAULT 0 NOT NULL,
    "createdAt" timestamp(3) without time zone DEFAULT CURRENT_TIMESTAMP NOT NULL
);

CREATE TABLE "Session" (
    id text NOT NULL,
    "sessionToken" text NOT NULL,
    "userId" text NOT NULL,
    expires timestamp(3) without time zone NOT NULL
);

CREATE TABLE "SessionConnection" (
    id text NOT NULL,
    "sessionId" text NOT NULL,
    "tenantId" text NOT NULL,
    "roomId" text NOT NULL,
    "participantId" text NOT NULL,
    "connectionKey" text NOT NULL,
    "joinedAt" timestamp(3) without time zone,
    "leftAt" timestamp(3) without time zone,
    "closedBy" text,
    "createdAt" timestamp(3) without time zone DEFAULT CURRENT_TIMESTAMP NOT NULL
);

CREATE TABLE "Stream" (
    id text NOT NULL,
    "tenantId" text NOT NULL,
    "roomId" text NOT NULL,
    "mediaEgressId" text NOT NULL,
    status "EgressJobStatus" DEFAULT 'STARTING'::"EgressJobStatus" NOT NULL,
    destinations jsonb NOT NULL,
    "createdByExternalId" text,
    "startedAt" timestamp(3) without time zone,
    "endedAt" timestamp(3) without time zone,
    duration integer,
    error text,
    "createdAt" timestamp(3) without time zone DEFAULT CURRENT_TIMESTAMP NOT NULL,
    "updatedAt" timestamp(3) without time zone NOT NULL
);

CREATE TABLE "Tenant" (
    id text NOT NULL,
    "providerId" text,
    name text NOT NULL,
    status "TenantStatus" DEFAULT 'ACTIVE'::"TenantStatus" NOT NULL,
    "isTestMode" boolean DEFAULT false NOT NULL,
    plan text DEFAULT 'starter'::text NOT NULL,
    "entitlementOverrides" jsonb,
    "webhookUrl" text,
    "webhookEvents" jsonb,
    "webhookSecretEncrypted" text,
    "webhookSecretPreviousEncrypted" text,
    "webhookSecretPreviousExpiresAt" timestamp(3) without time zone,
    "frameAncestors" text[] DEFAULT ARRAY[]::text[],
    "joinWindowMinutes" integer DEFAULT 15 NOT NULL,
    "emptyRoomTimeoutMinutes" integer DEFAULT 10 NOT NULL,
    "mediaUrl" text,
    "mediaApiKey" text,
    "mediaApiSecretEncrypted" text,
    "createdAt" timestamp(3) without time zone DEFAULT CURRENT_TIMESTAMP NOT NULL,
    "updatedAt" timestamp(3) without time zone NOT NULL,
    branding jsonb
);

CREATE TABLE "TenantRoomCount" (
    "tenantId" text NOT NULL,
    "openRooms" integer DEFAULT 0 NOT NULL
);

CREATE TABLE "Transcript" (
    id text NOT NULL,
    "tenantId" text NOT NULL,
    "recordingId" text NOT NULL,
    "roomId" text NOT NULL,
    status "TranscriptStatus" DEFAULT 'PENDING'::"TranscriptStatus" NOT NULL,
    language text,
    text text,
    segments jsonb,
    provider text,
    error text,
    "createdAt" timestamp(3) without time zone DEFAULT CURRENT_TIMESTAMP NOT NULL,
    "updatedAt" timestamp(3) without time zone NOT NULL,
    "completedAt" timestamp(3) without time zone
);

CREATE TABLE "UsageCounter" (
    "tenantId" text NOT NULL,
    day date NOT NULL,
    metric text NOT NULL,
    value bigint DEFAULT 0 NOT NULL
);

CREATE TABLE "User" (
    id text NOT NULL,
    email text NOT NULL,
    name text,
    "emailVerified" timestamp(3) without time zone,
    image text,
    "passwordHash" text,
    "tenantId" text,
    "providerId" text,
    role "ConsoleRole" DEFAULT 'VIEWER'::"ConsoleRole" NOT NULL,
    "createdAt" timestamp(3) without time zone DEFAULT CURRENT_TIMESTAMP NOT NULL,
    "updatedAt" timestamp(3) without time zone NOT NULL
);

CREATE TABLE "VerificationToken" (
    identifier text NOT NULL,
    token text NOT NULL,
    expires timestamp(3) without time zone NOT NULL
);

CREATE TABLE "WebhookAttempt" (
    id text NOT NULL,
    "deliveryId" text NOT NULL,
    "attemptNumber" integer NOT NULL,
    "requestUrl" text NOT NULL,
    "requestHeaders" jsonb NOT NULL,
    "requestBody" text NOT NULL,
    "responseStatus" integer,
    "responseBody" text,
    error text,
    "durationMs" integer NOT NULL,
    "willRetry" boolean NOT NULL,
    "nextRetryAt" timestamp(3) without time zone,
    "createdAt" timestamp(3) without time zone DEFAULT CURRENT_TIMESTAMP NOT NULL
);

CREATE TABLE "WebhookDelivery" (
    id text NOT NULL,
    "tenantId" text NOT NULL,
    "eventId" text NOT NULL,
    "eventName" text NOT NULL,
    url text NOT NULL,
    status "DeliveryStatus" DEFAULT 'PENDING'::"DeliveryStatus" NOT NULL,
    "attemptCount" integer DEFAULT 0 NOT NULL,
    "nextAttemptAt" timestamp(3) without time zone,
    "deliveredAt" timestamp(3) without time zone,
    "lastError" text,
    "replayCount" integer DEFAULT 0 NOT NULL,
    "createdAt" timestamp(3) without time zone DEFAULT CURRENT_TIMESTAMP NOT NULL,
    "updatedAt" timestamp(3) without time zone NOT NULL,
    "leasedUntil" timestamp(3) without time zone,
    "replayOfId" text
);

ALTER TABLE ONLY "ChatMessage" ALTER COLUMN seq SET DEFAULT nextval('"ChatMessage_seq_seq"'::regclass);

ALTER TABLE ONLY "Account"
    ADD CONSTRAINT "Account_pkey" PRIMARY KEY (id);

ALTER TABLE ONLY "ApiKey"
    ADD CONSTRAINT "ApiKey_pkey" PRIMARY KEY (id);

ALTER TABLE ONLY "Breakout"
    ADD CONSTRAINT "Breakout_pkey" PRIMARY KEY (id);

ALTER TABLE ONLY "Call"
    ADD CONSTRAINT "Call_pkey" PRIMARY KEY (id);

ALTER TABLE ONLY "CaptionSession"
    ADD CONSTRAINT "CaptionSession_pkey" PRIMARY KEY (id);

ALTER TABLE ONLY "ChatMessage"
    ADD CONSTRAINT "ChatMessage_pkey" PRIMARY KEY (id);

ALTER TABLE ONLY "Event"
    ADD CONSTRAINT "Event_pkey" PRIMARY KEY (id);

ALTER TABLE ONLY "IdempotencyRecord"
    ADD CONSTRAINT "IdempotencyRecord_pkey" PRIMARY KEY (id);

ALTER TABLE ONLY "IngressEndpoint"
    ADD CONSTRAINT "IngressEndpoint_pkey" PRIMARY KEY (id);

ALTER TABLE ONLY "MediaWebhookReceipt"
    ADD CONSTRAINT "MediaWebhookReceipt_pkey" PRIMARY KEY (id);

ALTER TABLE ONLY "Participant"
    ADD CONSTRAINT "Participant_pkey" PRIMARY KEY (id);

ALTER TABLE ONLY "PollOption"
    ADD CONSTRAINT "PollOption_pkey" PRIMARY KEY (id);

ALTER TABLE ONLY "PollVote"
    ADD CONSTRAINT "PollVote_pkey" PRIMARY KEY (id);

ALTER TABLE ONLY "Poll"
    ADD CONSTRAINT "Poll_pkey" PRIMARY KEY (id);

ALTER TABLE ONLY "ProviderKey"
    ADD CONSTRAINT "ProviderKey_pkey" PRIMARY KEY (id);

ALTER TABLE ONLY "Provider"
    ADD CONSTRAINT "Provider_pkey" PRIMARY KEY (id);

ALTER TABLE ONLY "QuestionUpvote"
    ADD CONSTRAINT "QuestionUpvote_pkey" PRIMARY KEY (id);

ALTER TABLE ONLY "Question"
    ADD CONSTRAINT "Question_pkey" PRIMARY KEY (id);

ALTER TABLE ONLY "Recording"
    ADD CONSTRAINT "Recording_pkey" PRIMARY KEY (id);

ALTER TABLE ONLY "RoomParticipantRows"
    ADD CONSTRAINT "RoomParticipantRows_pkey" PRIMARY KEY ("roomId", share);

ALTER TABLE ONLY "RoomSession"
    ADD CONSTRAINT "RoomSession_pkey" PRIMARY KEY (id);

ALTER TABLE ONLY "Room"
    ADD CONSTRAINT "Room_pkey" PRIMARY KEY (id);

ALTER TABLE ONLY "SessionConnection"
    ADD CONSTRAINT "SessionConnection_pkey" PRIMARY KEY (id);

ALTER TABLE ONLY "Session"
    ADD CONSTRAINT "Session_pkey" PRIMARY KEY (id);

ALTER TABLE ONLY "Stream"
    ADD CONSTRAINT "Stream_pkey" PRIMARY KEY (id);

ALTER TABLE ONLY "TenantRoomCount"
    ADD CONSTRAINT "TenantRoomCount_pkey" PRIMARY KEY ("tenantId");

ALTER TABLE ONLY "Tenant"
    ADD CONSTRAINT "Tenant_pkey" PRIMARY KEY (id);

ALTER TABLE ONLY "Transcript"
    ADD CONSTRAINT "Transcript_pkey" PRIMARY KEY (id);

ALTER TABLE ONLY "UsageCounter"
    ADD CONSTRAINT "UsageCounter_pkey" PRIMARY KEY ("tenantId", day, metric);

ALTER TABLE ONLY "User"
    ADD CONSTRAINT "User_pkey" PRIMARY KEY (id);

ALTER TABLE ONLY "WebhookAttempt"
    ADD CONSTRAINT "WebhookAttempt_pkey" PRIMARY KEY (id);

ALTER TABLE ONLY "WebhookDelivery"
    ADD CONSTRAINT "WebhookDelivery_pkey" PRIMARY KEY (id);

CREATE UNIQUE INDEX "Account_provider_providerAccountId_key" ON "Account" USING btree (provider, "providerAccountId");

CREATE UNIQUE INDEX "ApiKey_keyHash_key" ON "ApiKey" USING btree ("keyHash");

CREATE INDEX "ApiKey_tenantId_createdAt_idx" ON "ApiKey" USING btree ("tenantId", "createdAt");

CREATE UNIQUE INDEX "Breakout_mediaRoomName_key" ON "Breakout" USING btree ("mediaRoomName");

CREATE INDEX "Breakout_roomId_idx" ON "Breakout" USING btree ("roomId");

CREATE INDEX "Call_tenantId_createdAt_idx" ON "Call" USING btree ("tenantId", "createdAt");

CREATE INDEX "Call_tenantId_queueName_status_priority_queuedAt_idx" ON "Call" USING btree ("tenantId", "queueName", status, priority, "queuedAt");

CREATE INDEX "CaptionSession_roomId_startedAt_idx" ON "CaptionSession" USING btree ("roomId", "startedAt");

CREATE INDEX "ChatMessage_createdAt_idx" ON "ChatMessage" USING btree ("createdAt");

CREATE INDEX "ChatMessage_roomId_seq_idx" ON "ChatMessage" USING btree ("roomId", seq);

CREATE UNIQUE INDEX "ChatMessage_seq_key" ON "ChatMessage" USING btree (seq);

CREATE INDEX "ChatMessage_tenantId_createdAt_idx" ON "ChatMessage" USING btree ("tenantId", "createdAt");

CREATE INDEX "Event_tenantId_occurredAt_idx" ON "Event" USING btree ("tenantId", "occurredAt");

CREATE INDEX "Event_tenantId_roomId_occurredAt_idx" ON "Event" USING btree ("tenantId", "roomId", "occurredAt");

CREATE INDEX "IdempotencyRecord_expiresAt_idx" ON "IdempotencyRecord" USING btree ("expiresAt");

CREATE UNIQUE INDEX "IdempotencyRecord_scope_key_key" ON "IdempotencyRecord" USING btree (scope, key);

CREATE INDEX "IngressEndpoint_live_tenantId_idx" ON "IngressEndpoint" USING btree ("tenantId") WHERE (status <> 'DELETED'::"IngressStatus");

CREATE UNIQUE INDEX "IngressEndpoint_mediaIngressId_key" ON "IngressEndpoint" USING btree ("mediaIngressId");

CREATE INDEX "IngressEndpoint_tenantId_createdAt_idx" ON "IngressEndpoint" USING btree ("tenantId", "createdAt");

CREATE INDEX "MediaWebhookReceipt_receivedAt_idx" ON "MediaWebhookReceipt" USING btree ("receivedAt");

CREATE UNIQUE INDEX "Participant_mediaIdentity_key" ON "Participant" USING btree ("mediaIdentity");

CREATE INDEX "Participant_present_roomId_createdAt_id_idx" ON "Participant" USING btree ("roomId", "createdAt", id) WHERE ("connectionState" = ANY (ARRAY['PENDING'::"ConnectionState", 'WAITING'::"ConnectionState", 'CONNECTED'::"ConnectionState"]));

CREATE INDEX "Participant_roomId_connectionState_idx" ON "Participant" USING btree ("roomId", "connectionState");

CREATE INDEX "Participant_roomId_createdAt_id_idx" ON "Participant" USING btree ("roomId", "createdAt", id);

CREATE UNIQUE INDEX "Participant_roomId_externalUserId_key" ON "Participant" USING btree ("roomId", "externalUserId");

CREATE INDEX "Participant_tenantId_connectionState_idx" ON "Participant" USING btree ("tenantId", "connectionState");

CREATE INDEX "PollOption_pollId_idx" ON "PollOption" USING btree ("pollId");

CREATE UNIQUE INDEX "PollVote_pollId_optionId_voterExternalId_key" ON "PollVote" USING btree ("pollId", "optionId", "voterExternalId");

CREATE INDEX "PollVote_pollId_voterExternalId_idx" ON "PollVote" USING btree ("pollId", "voterExternalId");

CREATE INDEX "Poll_roomId_createdAt_idx" ON "Poll" USING btree ("roomId", "createdAt");

CREATE INDEX "Poll_tenantId_idx" ON "Poll" USING btree ("tenantId");

CREATE UNIQUE INDEX "ProviderKey_keyHash_key" ON "ProviderKey" USING btree ("keyHash");

CREATE INDEX "ProviderKey_providerId_idx" ON "ProviderKey" USING btree ("providerId");

CREATE UNIQUE INDEX "QuestionUpvote_questionId_voterExternalId_key" ON "QuestionUpvote" USING btree ("questionId", "voterExternalId");

CREATE INDEX "Question_roomId_createdAt_idx" ON "Question" USING btree ("roomId", "createdAt");

CREATE INDEX "Question_tenantId_idx" ON "Question" USING btree ("tenantId");

CREATE UNIQUE INDEX "Recording_mediaEgressId_key" ON "Recording" USING btree ("mediaEgressId");

CREATE INDEX "Recording_roomId_createdAt_idx" ON "Recording" USING btree ("roomId", "createdAt");

CREATE INDEX "Recording_running_tenantId_idx" ON "Recording" USING btree ("tenantId") WHERE (status = ANY (ARRAY['STARTING'::"EgressJobStatus", 'ACTIVE'::"EgressJobStatus", 'STOPPING'::"EgressJobStatus"]));

CREATE INDEX "Recording_tenantId_createdAt_idx" ON "Recording" USING btree ("tenantId", "createdAt");

CREATE INDEX "RoomSession_open_tenantId_startedAt_id_idx" ON "RoomSession" USING btree ("tenantId", "startedAt", id) WHERE ("endedAt" IS NULL);

CREATE INDEX "RoomSession_roomId_startedAt_idx" ON "RoomSession" USING btree ("roomId", "startedAt");

CREATE INDEX "RoomSession_tenantId_startedAt_idx" ON "RoomSession" USING btree ("tenantId", "startedAt");

CREATE INDEX "Room_active_idx" ON "Room" USING btree ("tenantId") WHERE (status = 'ACTIVE'::"RoomStatus");

CREATE UNIQUE INDEX "Room_mediaRoomName_key" ON "Room" USING btree ("mediaRoomName");

CREATE INDEX "Room_open_autoEndAt_idx" ON "Room" USING btree ("autoEndAt") WHERE ((status <> 'ENDED'::"RoomStatus") AND ("autoEndAt" IS NOT NULL));

CREATE INDEX "Room_tenantId_createdAt_idx" ON "Room" USING btree ("tenantId", "createdAt");

CREATE INDEX "Room_tenantId_externalId_idx" ON "Room" USING btree ("tenantId", "externalId");

CREATE INDEX "Room_tenantId_status_idx" ON "Room" USING btree ("tenantId", status);

CREATE UNIQUE INDEX "SessionConnection_participantId_connectionKey_key" ON "SessionConnection" USING btree ("participantId", "connectionKey");

CREATE INDEX "SessionConnection_sessionId_idx" ON "SessionConnection" USING btree ("sessionId");

CREATE INDEX "SessionConnection_tenantId_leftAt_idx" ON "SessionConnection" USING btree ("tenantId", "leftAt");

CREATE UNIQUE INDEX "Session_sessionToken_key" ON "Session" USING btree ("sessionToken");

CREATE UNIQUE INDEX "Stream_mediaEgressId_key" ON "Stream" USING btree ("mediaEgressId");

CREATE INDEX "Stream_running_tenantId_idx" ON "Stream" USING btree ("tenantId") WHERE (status = ANY (ARRAY['STARTING'::"EgressJobStatus", 'ACTIVE'::"EgressJobStatus", 'STOPPING'::"EgressJobStatus"]));

CREATE INDEX "Stream_tenantId_createdAt_idx" ON "Stream" USING btree ("tenantId", "createdAt");

CREATE INDEX "Tenant_providerId_createdAt_idx" ON "Tenant" USING btree ("providerId", "createdAt");

CREATE INDEX "Transcript_recordingId_idx" ON "Transcript" USING btree ("recordingId");

CREATE INDEX "Transcript_tenantId_createdAt_idx" ON "Transcript" USING btree ("tenantId", "createdAt");

CREATE UNIQUE INDEX "User_email_key" ON "User" USING btree (email);

CREATE UNIQUE INDEX "VerificationToken_identifier_token_key" ON "VerificationToken" USING btree (identifier, token);

CREATE UNIQUE INDEX "VerificationToken_token_key" ON "VerificationToken" USING btree (token);

CREATE INDEX "WebhookAttempt_createdAt_idx" ON "WebhookAttempt" USING btree ("createdAt");

CREATE UNIQUE INDEX "WebhookAttempt_deliveryId_attemptNumber_key" ON "WebhookAttempt" USING btree ("deliveryId", "attemptNumber");

CREATE INDEX "WebhookAttempt_unpruned_createdAt_idx" ON "WebhookAttempt" USING btree ("createdAt") WHERE ("requestBody" <> ''::text);

CREATE INDEX "WebhookDelivery_open_leased_idx" ON "WebhookDelivery" USING btree ("tenantId", "leasedUntil") WHERE ((status = ANY (ARRAY['PENDING'::"DeliveryStatus", 'RETRYING'::"DeliveryStatus"])) AND ("leasedUntil" IS NOT NULL));

CREATE INDEX "WebhookDelivery_open_tenantId_nextAttemptAt_idx" ON "WebhookDelivery" USING btree ("tenantId", "nextAttemptAt") WHERE (status = ANY (ARRAY['PENDING'::"DeliveryStatus", 'RETRYING'::"DeliveryStatus"]));

CREATE INDEX "WebhookDelivery_status_nextAttemptAt_idx" ON "WebhookDelivery" USING btree (status, "nextAttemptAt");

CREATE INDEX "WebhookDelivery_tenantId_createdAt_idx" ON "WebhookDelivery" USING btree ("tenantId", "createdAt");

CREATE INDEX "WebhookDelivery_tenantId_eventName_createdAt_idx" ON "WebhookDelivery" USING btree ("tenantId", "eventName", "createdAt");

CREATE INDEX "WebhookDelivery_tenantId_status_createdAt_idx" ON "WebhookDelivery" USING btree ("tenantId", status, "createdAt");

ALTER TABLE ONLY "Account"
    ADD CONSTRAINT "Account_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"(id) ON UPDATE CASCADE ON DELETE CASCADE;

ALTER TABLE ONLY "ApiKey"
    ADD CONSTRAINT "ApiKey_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"(id) ON UPDATE CASCADE ON DELETE CASCADE;

ALTER TABLE ONLY "Breakout"
    ADD CONSTRAINT "Breakout_roomId_fkey" FOREIGN KEY ("roomId") REFERENCES "Room"(id) ON UPDATE CASCADE ON DELETE CASCADE;

ALTER TABLE ONLY "Call"
    ADD CONSTRAINT "Call_roomId_fkey" FOREIGN KEY ("roomId") REFERENCES "Room"(id) ON UPDATE CASCADE ON DELETE SET NULL;

ALTER TABLE ONLY "Call"
    ADD CONSTRAINT "Call_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"(id) ON UPDATE CASCADE ON DELETE CASCADE;

ALTER TABLE ONLY "CaptionSession"
    ADD CONSTRAINT "CaptionSession_roomId_fkey" FOREIGN KEY ("roomId") REFERENCES "Room"(id) ON UPDATE CASCADE ON DELETE CASCADE;

ALTER TABLE ONLY "ChatMessage"
    ADD CONSTRAINT "ChatMessage_roomId_fkey" FOREIGN KEY ("roomId") REFERENCES "Room"(id) ON UPDATE CASCADE ON DELETE CASCADE;

ALTER TABLE ONLY "Event"
    ADD CONSTRAINT "Event_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"(id) ON UPDATE CASCADE ON DELETE CASCADE;

ALTER TABLE ONLY "IngressEndpoint"
    ADD CONSTRAINT "IngressEndpoint_roomId_fkey" FOREIGN KEY ("roomId") REFERENCES "Room"(id) ON UPDATE CASCADE ON DELETE CASCADE;

ALTER TABLE ONLY "IngressEndpoint"
    ADD CONSTRAINT "IngressEndpoint_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"(id) ON UPDATE CASCADE ON DELETE CASCADE;

ALTER TABLE ONLY "Participant"
    ADD CONSTRAINT "Participant_roomId_fkey" FOREIGN KEY ("roomId") REFERENCES "Room"(id) ON UPDATE CASCADE ON DELETE CASCADE;

ALTER TABLE ONLY "PollOption"
    ADD CONSTRAINT "PollOption_pollId_fkey" FOREIGN KEY ("pollId") REFERENCES "Poll"(id) ON UPDATE CASCADE ON DELETE CASCADE;

ALTER TABLE ONLY "PollVote"
    ADD CONSTRAINT "PollVote_optionId_fkey" FOREIGN KEY ("optionId") REFERENCES "PollOption"(id) ON UPDATE CASCADE ON DELETE CASCADE;

ALTER TABLE ONLY "PollVote"
    ADD CONSTRAINT "PollVote_pollId_fkey" FOREIGN KEY ("pollId") REFERENCES "Poll"(id) ON UPDATE CASCADE ON DELETE CASCADE;

ALTER TABLE ONLY "Poll"
    ADD CONSTRAINT "Poll_roomId_fkey" FOREIGN KEY ("roomId") REFERENCES "Room"(id) ON UPDATE CASCADE ON DELETE CASCADE;

ALTER TABLE ONLY "ProviderKey"
    ADD CONSTRAINT "ProviderKey_providerId_fkey" FOREIGN KEY ("providerId") REFERENCES "Provider"(id) ON UPDATE CASCADE ON DELETE CASCADE;

ALTER TABLE ONLY "QuestionUpvote"
    ADD CONSTRAINT "QuestionUpvote_questionId_fkey" FOREIGN KEY ("questionId") REFERENCES "Question"(id) ON UPDATE CASCADE ON DELETE CASCADE;

ALTER TABLE ONLY "Question"
    ADD CONSTRAINT "Question_roomId_fkey" FOREIGN KEY ("roomId") REFERENCES "Room"(id) ON UPDATE CASCADE ON DELETE CASCADE;

ALTER TABLE ONLY "Recording"
    ADD CONSTRAINT "Recording_roomId_fkey" FOREIGN KEY ("roomId") REFERENCES "Room"(id) ON UPDATE CASCADE ON DELETE CASCADE;

ALTER TABLE ONLY "Recording"
    ADD CONSTRAINT "Recording_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"(id) ON UPDATE CASCADE ON DELETE CASCADE;

ALTER TABLE ONLY "RoomParticipantRows"
    ADD CONSTRAINT "RoomParticipantRows_roomId_fkey" FOREIGN KEY ("roomId") REFERENCES "Room"(id) ON UPDATE CASCADE ON DELETE CASCADE;

ALTER TABLE ONLY "RoomSession"
    ADD CONSTRAINT "RoomSession_roomId_fkey" FOREIGN KEY ("roomId") REFERENCES "Room"(id) ON UPDATE CASCADE ON DELETE CASCADE;

ALTER TABLE ONLY "Room"
    ADD CONSTRAINT "Room_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"(id) ON UPDATE CASCADE ON DELETE CASCADE;

ALTER TABLE ONLY "SessionConnection"
    ADD CONSTRAINT "SessionConnection_sessionId_fkey" FOREIGN KEY ("sessionId") REFERENCES "RoomSession"(id) ON UPDATE CASCADE ON DELETE CASCADE;

ALTER TABLE ONLY "Session"
    ADD CONSTRAINT "Session_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"(id) ON UPDATE CASCADE ON DELETE CASCADE;

ALTER TABLE ONLY "Stream"
    ADD CONSTRAINT "Stream_roomId_fkey" FOREIGN KEY ("roomId") REFERENCES "Room"(id) ON UPDATE CASCADE ON DELETE CASCADE;

ALTER TABLE ONLY "Stream"
    ADD CONSTRAINT "Stream_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"(id) ON UPDATE CASCADE ON DELETE CASCADE;

ALTER TABLE ONLY "Tenant"
    ADD CONSTRAINT "Tenant_providerId_fkey" FOREIGN KEY ("providerId") REFERENCES "Provider"(id) ON UPDATE CASCADE ON DELETE SET NULL;

ALTER TABLE ONLY "Transcript"
    ADD CONSTRAINT "Transcript_recordingId_fkey" FOREIGN KEY ("recordingId") REFERENCES "Recording"(id) ON UPDATE CASCADE ON DELETE CASCADE;

ALTER TABLE ONLY "UsageCounter"
    ADD CONSTRAINT "UsageCounter_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"(id) ON UPDATE CASCADE ON DELETE CASCADE;

ALTER TABLE ONLY "User"
    ADD CONSTRAINT "User_providerId_fkey" FOREIGN KEY ("providerId") REFERENCES "Provider"(id) ON UPDATE CASCADE ON DELETE CASCADE;

ALTER TABLE ONLY "User"
    ADD CONSTRAINT "User_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"(id) ON UPDATE CASCADE ON DELETE CASCADE;

ALTER TABLE ONLY "WebhookAttempt"
    ADD CONSTRAINT "WebhookAttempt_deliveryId_fkey" FOREIGN KEY ("deliveryId") REFERENCES "WebhookDelivery"(id) ON UPDATE CASCADE ON DELETE CASCADE;

ALTER TABLE ONLY "WebhookDelivery"
    ADD CONSTRAINT "WebhookDelivery_eventId_fkey" FOREIGN KEY ("eventId") REFERENCES "Event"(id) ON UPDATE CASCADE ON DELETE CASCADE;

ALTER TABLE ONLY "WebhookDelivery"
    ADD CONSTRAINT "WebhookDelivery_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"(id) ON UPDATE CASCADE ON DELETE CASCADE;

SET check_function_bodies = false;

-- source: prisma/sql/convene_add_usage.sql
CREATE OR REPLACE FUNCTION convene_add_usage(p_tenant text, p_day date, p_metric text, p_amount bigint) RETURNS void
    LANGUAGE sql
    AS $$
  INSERT INTO "UsageCounter" ("tenantId", day, metric, value) VALUES (p_tenant, p_day, p_metric, p_amount)
  ON CONFLICT ("tenantId", day, metric) DO UPDATE SET value = "UsageCounter".value + EXCLUDED.value
$$;
-- end: prisma/sql/convene_add_usage.sql

-- source: prisma/sql/convene_count_open_rooms.sql
CREATE OR REPLACE FUNCTION convene_count_open_rooms() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
DECLARE
  delta int := 0;
  tenant text;
BEGIN
  IF TG_OP IN ('INSERT', 'UPDATE') AND NEW.status IN ('WAITING', 'ACTIVE') THEN delta := delta + 1; END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') AND OLD.status IN ('WAITING', 'ACTIVE') THEN delta := delta - 1; END IF;
  IF delta = 0 THEN RETURN NULL; END IF;
  tenant := CASE WHEN TG_OP = 'DELETE' THEN OLD."tenantId" ELSE NEW."tenantId" END;
  INSERT INTO "TenantRoomCount" AS c ("tenantId", "openRooms") VALUES (tenant, delta)
    ON CONFLICT ("tenantId") DO UPDATE SET "openRooms" = c."openRooms" + EXCLUDED."openRooms";
  RETURN NULL;
END
$$;
-- end: prisma/sql/convene_count_open_rooms.sql

-- source: prisma/sql/convene_count_participant_row.sql
CREATE OR REPLACE FUNCTION convene_count_participant_row() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
  UPDATE "RoomParticipantRows" SET "count" = "count" + 1
    WHERE "roomId" = NEW."roomId" AND share = convene_participant_rows_share();
  IF NOT FOUND THEN
    INSERT INTO "RoomParticipantRows" ("roomId", share, "count") VALUES (NEW."roomId", convene_participant_rows_share(), 1)
      ON CONFLICT ("roomId", share) DO UPDATE SET "count" = "RoomParticipantRows"."count" + 1;
  END IF;
  RETURN NULL;
END
$$;
-- end: prisma/sql/convene_count_participant_row.sql

-- source: prisma/sql/convene_create_room.sql
CREATE OR REPLACE FUNCTION convene_create_room(p_tenant_id text, p_limit integer, p_room jsonb) RETURNS jsonb
    LANGUAGE plpgsql
    AS $$
DECLARE
  open_rooms int;
  r "Room"%ROWTYPE;
BEGIN
  INSERT INTO "TenantRoomCount" ("tenantId", "openRooms") VALUES (p_tenant_id, 0) ON CONFLICT ("tenantId") DO NOTHING;
  SELECT "openRooms" INTO open_rooms FROM "TenantRoomCount" WHERE "tenantId" = p_tenant_id FOR UPDATE;
  IF open_rooms >= p_limit THEN RETURN jsonb_build_object('outcome', 'limit'); END IF;
  INSERT INTO "Room" SELECT * FROM jsonb_populate_record(NULL::"Room", p_room) RETURNING * INTO r;
  RETURN jsonb_build_object('outcome', 'ok', 'room', to_jsonb(r));
END
$$;
-- end: prisma/sql/convene_create_room.sql

-- source: prisma/sql/convene_emit_event.sql
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
-- end: prisma/sql/convene_emit_event.sql

-- source: prisma/sql/convene_event_room_id.sql
CREATE OR REPLACE FUNCTION convene_event_room_id() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
  NEW."roomId" := NEW.data->>'roomId';
  RETURN NEW;
END
$$;
-- end: prisma/sql/convene_event_room_id.sql

-- source: prisma/sql/convene_holds_seat.sql
-- The seat rule, the one definition of it: a participant holds a seat when approved and either
-- connected or handed a token after `hold_since` (an unconnected participant holds its seat for a
-- while). Used by the join (convene_seat_free) and by the call UI's entry check (lib/domain).
CREATE OR REPLACE FUNCTION convene_holds_seat(p "Participant", hold_since timestamp(3)) RETURNS boolean
    LANGUAGE sql IMMUTABLE
    AS $$
  SELECT p."isApproved" AND (p."connectionState" = 'CONNECTED' OR (p."connectionState" = 'PENDING' AND p."tokenIssuedAt" > hold_since))
$$;
-- end: prisma/sql/convene_holds_seat.sql

-- source: prisma/sql/convene_join.sql
-- The join, in one statement (lib/domain/participants/join.ts): the room's rules in order
-- (too early, locked, ended, turned away, waiting room, full), then the participant found or
-- created through the (roomId, externalUserId) unique index, and the room with its participants.
-- One argument, a JSON object (keys below), so a new rule or column changes one place.
--
--   tenantId, roomId, externalUserId, role, privileged (host or moderator: past the lock and the
--   waiting room), now, holdSince (an unconnected seat is held when its token is newer), planCap,
--   joinWindowMinutes, newId, mediaIdentity, profile {displayName, avatarUrl?, externalRole?,
--   externalMetadata?: a key absent keeps the row's value}, permissions (the role's defaults),
--   participantsLimit, knownRoomVersion (the caller's cached room: none of it is sent again when
--   unchanged), admissionHash, eventId, deliveryId (used only on a first park in the waiting
--   room), exclusive, reopen.
--
-- Far from its cap (more than 8 rows of headroom, read without a lock), a room takes joins side
-- by side: each holds the room row FOR SHARE, so a change to the room (lock, end, settings) waits
-- for the joins in flight and they for it, but joins do not wait for each other. Near the cap, or
-- with `exclusive`, a join holds the room FOR UPDATE, alone, and counts exactly. The outcome
-- 'slow' asks the caller to call again with `exclusive` (a shared join found the room near its
-- cap); 'ended' asks it to call again with `reopen` inside a transaction, so that a refusal rolls
-- the re-opening back.
CREATE OR REPLACE FUNCTION convene_join(p jsonb) RETURNS json
    LANGUAGE plpgsql
    SET enable_sort TO 'off'
    AS $$
DECLARE
  room_id text := p->>'roomId';
  user_id text := p->>'externalUserId';
  privileged boolean := (p->>'privileged')::boolean;
  now_at timestamp(3) := (p->>'now')::timestamptz AT TIME ZONE 'UTC';
  hold_since timestamp(3) := (p->>'holdSince')::timestamptz AT TIME ZONE 'UTC';
  profile jsonb := p->'profile';
  permissions jsonb := p->'permissions';
  participants_limit int := (p->>'participantsLimit')::int;
  known_version text := p->>'knownRoomVersion';
  r "Room"%ROWTYPE;
  e "Participant"%ROWTYPE;
  x "Participant"%ROWTYPE;
  cap int;
  shared boolean;
  own boolean;
  room_xmin text;
  outcome text := 'ok';
  first_park boolean;
  my_share int := convene_participant_rows_share();
BEGIN
  -- The room by its primary key alone, its tenant compared here (a room never changes tenant), so
  -- no plan can answer it through the tenant's rooms.
  SELECT y."tenantId" = p->>'tenantId',
         NOT coalesce((p->>'exclusive')::boolean, false)
           AND least(y."maxParticipants", (p->>'planCap')::int) - coalesce((SELECT sum(c."count") FROM "RoomParticipantRows" c WHERE c."roomId" = y.id), 0) > 8
    INTO own, shared FROM "Room" y WHERE y.id = room_id;
  IF NOT FOUND OR NOT own THEN RETURN json_build_object('outcome', 'not_found'); END IF;
  IF shared THEN
    SELECT * INTO r FROM "Room" WHERE id = room_id FOR SHARE;
  ELSE
    SELECT * INTO r FROM "Room" WHERE id = room_id FOR UPDATE;
  END IF;
  IF NOT FOUND THEN RETURN json_build_object('outcome', 'not_found'); END IF;
  cap := least(r."maxParticipants", (p->>'planCap')::int);
  IF r."scheduledAt" IS NOT NULL AND NOT privileged
      AND now_at < r."scheduledAt" - make_interval(mins => (p->>'joinWindowMinutes')::int) THEN
    RETURN json_build_object('outcome', 'too_early', 'room', row_to_json(r));
  END IF;
  IF r."isLocked" AND NOT privileged THEN RETURN json_build_object('outcome', 'locked'); END IF;
  IF r.status = 'ENDED' THEN
    IF NOT coalesce((p->>'reopen')::boolean, false) OR shared THEN RETURN json_build_object('outcome', 'ended'); END IF;
    r := convene_reopen_room(r.id, now_at);
  END IF;

  -- A waiting room admits only those a moderator approved before; anyone else is parked there.
  -- A participant turned away never comes back.
  IF r."enableWaitingRoom" AND NOT privileged THEN
    SELECT * INTO e FROM convene_participant_of(r.id, user_id);
    IF FOUND AND e."connectionState" IN ('REMOVED', 'DENIED') THEN RETURN json_build_object('outcome', 'refused'); END IF;
    IF NOT FOUND OR NOT e."isApproved" THEN
      IF NOT FOUND THEN
        INSERT INTO "Participant" (id, "roomId", "tenantId", "externalUserId", "displayName", "avatarUrl", "mediaIdentity", role,
            "canPublish", "canSubscribe", "canPublishData", "canScreenShare", "canRecord",
            "externalRole", "externalMetadata", "connectionState", "isApproved", "admissionSecretHash", "createdAt", "updatedAt")
          VALUES (p->>'newId', r.id, r."tenantId", user_id, profile->>'displayName', profile->>'avatarUrl', p->>'mediaIdentity', (p->>'role')::"ParticipantRole",
            (permissions->>'canPublish')::boolean, (permissions->>'canSubscribe')::boolean, (permissions->>'canPublishData')::boolean,
            (permissions->>'canScreenShare')::boolean, (permissions->>'canRecord')::boolean,
            profile->>'externalRole', NULLIF(profile->'externalMetadata', 'null'::jsonb), 'WAITING', false, p->>'admissionHash', now_at, now_at)
          ON CONFLICT ("roomId", "externalUserId") DO NOTHING
          RETURNING * INTO x;
        first_park := FOUND;
      END IF;
      IF x.id IS NULL THEN
        -- The row exists (or a racing join of the same user just made it): decided on the row, locked.
        IF e.id IS NULL THEN SELECT * INTO e FROM convene_participant_of(r.id, user_id); END IF;
        SELECT * INTO e FROM "Participant" y WHERE y.id = e.id FOR UPDATE;
        IF e."connectionState" IN ('REMOVED', 'DENIED') THEN RETURN json_build_object('outcome', 'refused'); END IF;
        IF NOT e."isApproved" THEN
          first_park := e."connectionState" <> 'WAITING';
          UPDATE "Participant" AS y SET
              "displayName" = profile->>'displayName',
              role = (p->>'role')::"ParticipantRole",
              "avatarUrl" = CASE WHEN profile ? 'avatarUrl' THEN profile->>'avatarUrl' ELSE y."avatarUrl" END,
              "externalRole" = CASE WHEN profile ? 'externalRole' THEN profile->>'externalRole' ELSE y."externalRole" END,
              "externalMetadata" = CASE WHEN profile ? 'externalMetadata' THEN NULLIF(profile->'externalMetadata', 'null'::jsonb) ELSE y."externalMetadata" END,
              "connectionState" = 'WAITING', "isApproved" = false, "admissionSecretHash" = p->>'admissionHash', "updatedAt" = now_at
            WHERE y.id = e.id
            RETURNING * INTO x;
        END IF;
      END IF;
      IF x.id IS NOT NULL THEN
        IF first_park THEN
          PERFORM convene_emit_event(p->>'eventId', r."tenantId", 'participant.waiting',
            jsonb_build_object('roomId', r.id, 'participantId', x.id, 'externalUserId', x."externalUserId"), now_at, p->>'deliveryId', false);
        END IF;
        outcome := 'waiting';
      END IF;
      -- Otherwise approved meanwhile: the join goes on as any other.
    END IF;
  END IF;

  -- Not parked: a seat, as every join.
  IF outcome = 'ok' THEN
    IF shared THEN
      -- This connection's share of the count, locked until commit (made if the room has none yet):
      -- so at most 8 joins are ever between here and their commit, one per share, each adding at
      -- most one row. The sum read after it holds every row committed before; with those 8, the
      -- rows can never pass the cap. If they could (a room filling while this join waited), the
      -- exclusive join decides, alone and counting exactly.
      PERFORM 1 FROM "RoomParticipantRows" WHERE "roomId" = r.id AND share = my_share FOR UPDATE;
      IF NOT FOUND THEN
        INSERT INTO "RoomParticipantRows" ("roomId", share) VALUES (r.id, my_share) ON CONFLICT DO NOTHING;
        PERFORM 1 FROM "RoomParticipantRows" WHERE "roomId" = r.id AND share = my_share FOR UPDATE;
      END IF;
      IF (SELECT coalesce(sum(c."count"), 0) FROM "RoomParticipantRows" c WHERE c."roomId" = r.id) + 8 > cap THEN
        RETURN json_build_object('outcome', 'slow');
      END IF;
    ELSIF NOT convene_seat_free(r.id, user_id, cap, hold_since) THEN
      -- Turned away comes before full.
      SELECT * INTO e FROM convene_participant_of(r.id, user_id);
      IF FOUND AND e."connectionState" IN ('REMOVED', 'DENIED') THEN RETURN json_build_object('outcome', 'refused'); END IF;
      RETURN json_build_object('outcome', 'full', 'cap', cap);
    END IF;

    -- Found or created through the unique index. A returning participant keeps its row: new profile,
    -- the role's permissions if the role changed, one more rejoin, a fresh seat hold. One turned away
    -- is not updated (the WHERE), so nothing comes back: refused.
    INSERT INTO "Participant" AS y (id, "roomId", "tenantId", "externalUserId", "displayName", "avatarUrl", "mediaIdentity", role,
        "canPublish", "canSubscribe", "canPublishData", "canScreenShare", "canRecord",
        "externalRole", "externalMetadata", "tokenIssuedAt", "createdAt", "updatedAt")
      VALUES (p->>'newId', r.id, r."tenantId", user_id, profile->>'displayName', profile->>'avatarUrl', p->>'mediaIdentity', (p->>'role')::"ParticipantRole",
        (permissions->>'canPublish')::boolean, (permissions->>'canSubscribe')::boolean, (permissions->>'canPublishData')::boolean,
        (permissions->>'canScreenShare')::boolean, (permissions->>'canRecord')::boolean,
        profile->>'externalRole', NULLIF(profile->'externalMetadata', 'null'::jsonb), now_at, now_at, now_at)
      ON CONFLICT ("roomId", "externalUserId") DO UPDATE SET
        "displayName" = EXCLUDED."displayName",
        role = EXCLUDED.role,
        "avatarUrl" = CASE WHEN profile ? 'avatarUrl' THEN EXCLUDED."avatarUrl" ELSE y."avatarUrl" END,
        "externalRole" = CASE WHEN profile ? 'externalRole' THEN EXCLUDED."externalRole" ELSE y."externalRole" END,
        "externalMetadata" = CASE WHEN profile ? 'externalMetadata' THEN EXCLUDED."externalMetadata" ELSE y."externalMetadata" END,
        "canPublish" = CASE WHEN y.role <> EXCLUDED.role THEN EXCLUDED."canPublish" ELSE y."canPublish" END,
        "canSubscribe" = CASE WHEN y.role <> EXCLUDED.role THEN EXCLUDED."canSubscribe" ELSE y."canSubscribe" END,
        "canPublishData" = CASE WHEN y.role <> EXCLUDED.role THEN EXCLUDED."canPublishData" ELSE y."canPublishData" END,
        "canScreenShare" = CASE WHEN y.role <> EXCLUDED.role THEN EXCLUDED."canScreenShare" ELSE y."canScreenShare" END,
        "canRecord" = CASE WHEN y.role <> EXCLUDED.role THEN EXCLUDED."canRecord" ELSE y."canRecord" END,
        "rejoinCount" = y."rejoinCount" + 1,
        "tokenIssuedAt" = now_at,
        "connectionState" = CASE WHEN y."connectionState" = 'CONNECTED' THEN 'CONNECTED'::"ConnectionState" ELSE 'PENDING'::"ConnectionState" END,
        "updatedAt" = now_at
      WHERE y."connectionState" NOT IN ('REMOVED', 'DENIED')
      RETURNING * INTO x;
    IF NOT FOUND THEN RETURN json_build_object('outcome', 'refused'); END IF;
  END IF;

  -- The room in the result carries its participants, as every Room response does. Its version
  -- names the exact row versions it is made of: the room's xmin (the row is locked, it cannot
  -- change before commit) and each listed participant's id and xmin. A caller already holding that
  -- version gets none of it again; otherwise the list and its version come from one statement.
  SELECT y.xmin::text INTO room_xmin FROM "Room" y WHERE y.id = r.id;
  IF known_version IS NOT NULL AND known_version = room_xmin || ':' || coalesce(
      (SELECT string_agg(l.version, ',') FROM convene_room_page(r.id, participants_limit) l), '') THEN
    RETURN json_build_object('outcome', outcome, 'participant', row_to_json(x), 'roomVersion', known_version);
  END IF;
  RETURN (SELECT json_build_object('outcome', outcome, 'participant', row_to_json(x),
      'roomVersion', room_xmin || ':' || coalesce(string_agg(l.version, ','), ''),
      'room', row_to_json(r),
      'participants', coalesce(json_agg(l.participant), '[]'::json))
    FROM convene_room_page(r.id, participants_limit) l);
END
$$;
-- end: prisma/sql/convene_join.sql

-- source: prisma/sql/convene_lease_deliveries.sql
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
-- end: prisma/sql/convene_lease_deliveries.sql

-- source: prisma/sql/convene_move_usage.sql
CREATE OR REPLACE FUNCTION convene_move_usage(p_tenant text, p_metric_old text, p_day_old date, p_old bigint, p_metric_new text, p_day_new date, p_new bigint) RETURNS void
    LANGUAGE plpgsql
    AS $$
BEGIN
  IF p_metric_old IS NOT DISTINCT FROM p_metric_new AND p_day_old IS NOT DISTINCT FROM p_day_new THEN
    IF p_metric_new IS NOT NULL AND p_day_new IS NOT NULL AND p_new - p_old <> 0 THEN
      PERFORM convene_add_usage(p_tenant, p_day_new, p_metric_new, p_new - p_old);
    END IF;
    RETURN;
  END IF;
  IF p_metric_old IS NOT NULL AND p_day_old IS NOT NULL AND p_old <> 0 THEN
    PERFORM convene_add_usage(p_tenant, p_day_old, p_metric_old, -p_old);
  END IF;
  IF p_metric_new IS NOT NULL AND p_day_new IS NOT NULL AND p_new <> 0 THEN
    PERFORM convene_add_usage(p_tenant, p_day_new, p_metric_new, p_new);
  END IF;
END
$$;
-- end: prisma/sql/convene_move_usage.sql

-- source: prisma/sql/convene_notify_credentials.sql
CREATE OR REPLACE FUNCTION convene_notify_credentials() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
  PERFORM pg_notify('convene_credentials', TG_TABLE_NAME);
  RETURN NULL;
END
$$;
-- end: prisma/sql/convene_notify_credentials.sql

-- source: prisma/sql/convene_participant_of.sql
CREATE OR REPLACE FUNCTION convene_participant_of(p_room_id text, p_external_user_id text) RETURNS SETOF "Participant"
    LANGUAGE plpgsql STABLE
    SET enable_sort TO 'off'
    SET enable_incremental_sort TO 'off'
    AS $$
BEGIN
  RETURN QUERY SELECT * FROM "Participant"
    WHERE ("roomId", "externalUserId") BETWEEN (p_room_id, p_external_user_id) AND (p_room_id, p_external_user_id)
    ORDER BY "roomId", "externalUserId" LIMIT 1;
END
$$;
-- end: prisma/sql/convene_participant_of.sql

-- source: prisma/sql/convene_participant_rows_share.sql
CREATE OR REPLACE FUNCTION convene_participant_rows_share() RETURNS integer
    LANGUAGE sql STABLE
    AS $$
  SELECT pg_backend_pid() % 8
$$;
-- end: prisma/sql/convene_participant_rows_share.sql

-- source: prisma/sql/convene_participant_seconds.sql
CREATE OR REPLACE FUNCTION convene_participant_seconds() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
  PERFORM convene_move_usage(NEW."tenantId",
    CASE WHEN TG_OP = 'UPDATE' AND OLD.duration IS NOT NULL THEN 'participant_seconds' END,
    CASE WHEN TG_OP = 'UPDATE' THEN OLD."leftAt"::date END,
    CASE WHEN TG_OP = 'UPDATE' THEN coalesce(OLD.duration, 0) ELSE 0 END,
    CASE WHEN NEW.duration IS NOT NULL THEN 'participant_seconds' END, NEW."leftAt"::date, coalesce(NEW.duration, 0));
  RETURN NULL;
END
$$;
-- end: prisma/sql/convene_participant_seconds.sql

-- source: prisma/sql/convene_read_room_participants.sql
CREATE OR REPLACE FUNCTION convene_read_room_participants(p_room_ids text[], p_limit integer) RETURNS SETOF "Participant"
    LANGUAGE plpgsql STABLE
    SET enable_sort TO 'off'
    AS $$
BEGIN
  RETURN QUERY SELECT * FROM convene_room_participants(p_room_ids, p_limit);
END
$$;
-- end: prisma/sql/convene_read_room_participants.sql

-- source: prisma/sql/convene_reopen_room.sql
-- Re-opens an ENDED room (the caller holds its row FOR UPDATE): back to WAITING, a fresh start.
-- Used by POST /rooms/{id}/reopen and by a join into an ended room.
CREATE OR REPLACE FUNCTION convene_reopen_room(p_room_id text, p_now timestamp(3)) RETURNS "Room"
    LANGUAGE sql
    AS $$
  UPDATE "Room" SET status = 'WAITING', "reopenCount" = "reopenCount" + 1, "endedAt" = NULL, "startedAt" = NULL,
      duration = NULL, "activeParticipants" = 0, "updatedAt" = p_now
    WHERE id = p_room_id
    RETURNING *
$$;
-- end: prisma/sql/convene_reopen_room.sql

-- source: prisma/sql/convene_room_page.sql
CREATE OR REPLACE FUNCTION convene_room_page(p_room_id text, p_limit integer) RETURNS TABLE(participant "Participant", version text)
    LANGUAGE sql STABLE
    AS $$
  SELECT x, x.id || '.' || x.xmin::text FROM "Participant" x
    WHERE x."roomId" = p_room_id AND x."connectionState" IN ('PENDING', 'WAITING', 'CONNECTED')
    ORDER BY x."createdAt", x.id LIMIT p_limit
$$;
-- end: prisma/sql/convene_room_page.sql

-- source: prisma/sql/convene_room_participants.sql
CREATE OR REPLACE FUNCTION convene_room_participants(p_room_ids text[], p_limit integer) RETURNS SETOF "Participant"
    LANGUAGE sql STABLE
    AS $$
  SELECT (l.participant).* FROM unnest(p_room_ids) AS room(id)
  CROSS JOIN LATERAL convene_room_page(room.id, p_limit) l
$$;
-- end: prisma/sql/convene_room_participants.sql

-- source: prisma/sql/convene_seat_free.sql
-- Whether a seat is free in a room for this user. The room's participant rows ever inserted
-- (RoomParticipantRows, kept by a trigger) bound the seats taken: while they are fewer than the
-- cap a seat is free without counting, so a room of thousands reads a few rows, not the room;
-- only from there on are the others' seats counted. Exact when the caller holds the room row
-- FOR UPDATE (every join into the room has committed).
CREATE OR REPLACE FUNCTION convene_seat_free(p_room_id text, p_external_user_id text, p_cap integer, p_hold_since timestamp(3)) RETURNS boolean
    LANGUAGE sql STABLE
    AS $$
  SELECT coalesce((SELECT sum(c."count") FROM "RoomParticipantRows" c WHERE c."roomId" = p_room_id), 0) < p_cap
      OR (SELECT count(*) FROM "Participant" s
            WHERE s."roomId" = p_room_id AND s."externalUserId" <> p_external_user_id
              AND convene_holds_seat(s, p_hold_since)) < p_cap
$$;
-- end: prisma/sql/convene_seat_free.sql

-- source: prisma/sql/convene_sessions_started.sql
CREATE OR REPLACE FUNCTION convene_sessions_started() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
  PERFORM convene_move_usage(NEW."tenantId",
    CASE WHEN TG_OP = 'UPDATE' THEN 'sessions_started' END, CASE WHEN TG_OP = 'UPDATE' THEN OLD."startedAt"::date END, 1,
    'sessions_started', NEW."startedAt"::date, 1);
  RETURN NULL;
END
$$;
-- end: prisma/sql/convene_sessions_started.sql

-- source: prisma/sql/convene_webhook_outcomes.sql
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
-- end: prisma/sql/convene_webhook_outcomes.sql

CREATE TRIGGER "ApiKey_credentials_changed" AFTER DELETE OR UPDATE OF "revokedAt", "expiresAt", "keyHash", mode, permissions, "tenantId", "rotatedToId" ON "ApiKey" FOR EACH STATEMENT EXECUTE FUNCTION convene_notify_credentials();
CREATE TRIGGER "Event_roomId" BEFORE INSERT ON "Event" FOR EACH ROW WHEN (((new."roomId" IS NULL) AND (new.data ? 'roomId'::text))) EXECUTE FUNCTION convene_event_room_id();
CREATE TRIGGER "Participant_counts_rows" AFTER INSERT ON "Participant" FOR EACH ROW EXECUTE FUNCTION convene_count_participant_row();
CREATE TRIGGER "Participant_seconds_insert" AFTER INSERT ON "Participant" FOR EACH ROW WHEN (((new."leftAt" IS NOT NULL) AND (new.duration IS NOT NULL))) EXECUTE FUNCTION convene_participant_seconds();
CREATE TRIGGER "Participant_seconds_update" AFTER UPDATE OF "leftAt", duration ON "Participant" FOR EACH ROW WHEN (((old."leftAt" IS DISTINCT FROM new."leftAt") OR (old.duration IS DISTINCT FROM new.duration))) EXECUTE FUNCTION convene_participant_seconds();
CREATE TRIGGER "RoomSession_started_insert" AFTER INSERT ON "RoomSession" FOR EACH ROW EXECUTE FUNCTION convene_sessions_started();
CREATE TRIGGER "RoomSession_started_update" AFTER UPDATE OF "startedAt" ON "RoomSession" FOR EACH ROW WHEN (((old."startedAt")::date IS DISTINCT FROM (new."startedAt")::date)) EXECUTE FUNCTION convene_sessions_started();
CREATE TRIGGER "Room_counts_open" AFTER INSERT OR DELETE OR UPDATE OF status ON "Room" FOR EACH ROW EXECUTE FUNCTION convene_count_open_rooms();
CREATE TRIGGER "Tenant_credentials_changed" AFTER DELETE OR UPDATE ON "Tenant" FOR EACH STATEMENT EXECUTE FUNCTION convene_notify_credentials();
CREATE TRIGGER "WebhookDelivery_outcome_insert" AFTER INSERT ON "WebhookDelivery" FOR EACH ROW WHEN ((new.status = ANY (ARRAY['DELIVERED'::"DeliveryStatus", 'FAILED'::"DeliveryStatus"]))) EXECUTE FUNCTION convene_webhook_outcomes();
CREATE TRIGGER "WebhookDelivery_outcome_update" AFTER UPDATE OF status ON "WebhookDelivery" FOR EACH ROW WHEN (((old.status IS DISTINCT FROM new.status) AND ((old.status = ANY (ARRAY['DELIVERED'::"DeliveryStatus", 'FAILED'::"DeliveryStatus"])) OR (new.status = ANY (ARRAY['DELIVERED'::"DeliveryStatus", 'FAILED'::"DeliveryStatus"]))))) EXECUTE FUNCTION convene_webhook_outcomes();
