-- AlterTable
ALTER TABLE "match" ADD COLUMN     "first_move_deadline" TIMESTAMPTZ(3),
ADD COLUMN     "rated_at" TIMESTAMPTZ(3);

-- CreateIndex
CREATE INDEX "match_player0_id_player1_id_rated_at_idx" ON "match"("player0_id", "player1_id", "rated_at");

-- CreateIndex
CREATE INDEX "match_player1_id_idx" ON "match"("player1_id");

-- CreateIndex
CREATE INDEX "player_created_at_idx" ON "player"("created_at");

-- CreateIndex
CREATE INDEX "room_created_at_idx" ON "room"("created_at");

-- CreateIndex
CREATE INDEX "room_created_by_id_idx" ON "room"("created_by_id");
