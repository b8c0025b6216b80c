-- AlterTable
ALTER TABLE "match" ADD COLUMN     "rating_changes" JSONB;
