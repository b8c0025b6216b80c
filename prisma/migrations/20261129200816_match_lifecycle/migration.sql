-- AlterTable
ALTER TABLE "match" ADD COLUMN     "absent0_since" TIMESTAMPTZ(3),
ADD COLUMN     "absent1_since" TIMESTAMPTZ(3),
ADD COLUMN     "clock0_ms" INTEGER,
ADD COLUMN     "clock1_ms" INTEGER,
ADD COLUMN     "clock_deadline" TIMESTAMPTZ(3),
ADD COLUMN     "next_match_id" UUID,
ADD COLUMN     "rated" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "rematch0" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "rematch1" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "turn_started_at" TIMESTAMPTZ(3);

-- AlterTable
ALTER TABLE "move" ADD COLUMN     "remaining_ms" INTEGER;

-- AlterTable
ALTER TABLE "room" ADD COLUMN     "rated" BOOLEAN NOT NULL DEFAULT false;

-- CreateIndex
CREATE INDEX "match_clock_deadline_idx" ON "match"("clock_deadline");

-- CreateIndex
CREATE INDEX "match_status_ended_at_idx" ON "match"("status", "ended_at");
