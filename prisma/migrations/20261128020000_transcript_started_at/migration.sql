-- A transcript's second 0 as a wall-clock time, so its segment times can be read as times of day.

-- AlterTable
ALTER TABLE "Transcript" ADD COLUMN     "startedAt" TIMESTAMP(3);
