-- AlterTable
ALTER TABLE "Participant" ADD COLUMN     "tokenIssuedAt" TIMESTAMP(3);
