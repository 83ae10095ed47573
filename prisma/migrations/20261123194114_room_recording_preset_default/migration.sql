-- Room.recordingPreset is an egress encoding preset (LiveKit's EncodingOptionsPreset names), never
-- null. Rooms created before this had null or a free-form string (formerly used as the layout):
-- both become the default preset.
UPDATE "Room" SET "recordingPreset" = 'H264_720P_30'
WHERE "recordingPreset" IS NULL
   OR "recordingPreset" NOT IN ('H264_720P_30', 'H264_720P_60', 'H264_1080P_30', 'H264_1080P_60',
                               'PORTRAIT_H264_720P_30', 'PORTRAIT_H264_720P_60', 'PORTRAIT_H264_1080P_30', 'PORTRAIT_H264_1080P_60');

-- AlterTable
ALTER TABLE "Room" ALTER COLUMN "recordingPreset" SET NOT NULL,
ALTER COLUMN "recordingPreset" SET DEFAULT 'H264_720P_30';
