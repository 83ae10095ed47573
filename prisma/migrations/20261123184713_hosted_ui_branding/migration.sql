-- AlterTable
ALTER TABLE "Provider" ADD COLUMN     "defaultBranding" JSONB;

-- AlterTable
ALTER TABLE "Tenant" ADD COLUMN     "branding" JSONB;
