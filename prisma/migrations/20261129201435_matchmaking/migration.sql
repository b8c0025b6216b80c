-- AlterTable
ALTER TABLE "player" ADD COLUMN     "deviation" DOUBLE PRECISION NOT NULL DEFAULT 350,
ADD COLUMN     "rated_games" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "rating" DOUBLE PRECISION NOT NULL DEFAULT 1500,
ADD COLUMN     "volatility" DOUBLE PRECISION NOT NULL DEFAULT 0.06;

-- CreateTable
CREATE TABLE "queue_entry" (
    "player_id" UUID NOT NULL,
    "pool" VARCHAR(8) NOT NULL,
    "rating" DOUBLE PRECISION NOT NULL,
    "connection" VARCHAR(64) NOT NULL,
    "joined_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "queue_entry_pkey" PRIMARY KEY ("player_id")
);

-- CreateIndex
CREATE INDEX "queue_entry_pool_joined_at_idx" ON "queue_entry"("pool", "joined_at");

-- CreateIndex
CREATE INDEX "queue_entry_connection_idx" ON "queue_entry"("connection");

-- CreateIndex
CREATE INDEX "player_rating_idx" ON "player"("rating");

-- AddForeignKey
ALTER TABLE "queue_entry" ADD CONSTRAINT "queue_entry_player_id_fkey" FOREIGN KEY ("player_id") REFERENCES "player"("id") ON DELETE CASCADE ON UPDATE CASCADE;
