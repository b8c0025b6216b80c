-- AlterTable
ALTER TABLE "player" ADD COLUMN     "bot_level" SMALLINT;

-- CreateTable
CREATE TABLE "match_analysis" (
    "match_id" UUID NOT NULL,
    "status" VARCHAR(8) NOT NULL,
    "depth" SMALLINT NOT NULL,
    "done" INTEGER NOT NULL DEFAULT 0,
    "total" INTEGER NOT NULL,
    "result" JSONB,
    "requested_by_id" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "match_analysis_pkey" PRIMARY KEY ("match_id")
);

-- CreateIndex
CREATE UNIQUE INDEX "player_bot_level_key" ON "player"("bot_level");

-- CreateIndex
CREATE INDEX "match_analysis_status_updated_at_idx" ON "match_analysis"("status", "updated_at");

-- CreateIndex
CREATE INDEX "match_analysis_requested_by_id_status_idx" ON "match_analysis"("requested_by_id", "status");

-- AddForeignKey
ALTER TABLE "match_analysis" ADD CONSTRAINT "match_analysis_match_id_fkey" FOREIGN KEY ("match_id") REFERENCES "match"("id") ON DELETE CASCADE ON UPDATE CASCADE;
