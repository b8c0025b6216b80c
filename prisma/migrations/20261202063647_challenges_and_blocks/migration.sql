-- CreateTable
CREATE TABLE "challenge" (
    "id" UUID NOT NULL,
    "creator_id" UUID NOT NULL,
    "target_id" UUID,
    "rules" JSONB NOT NULL,
    "initial_ms" INTEGER,
    "increment_ms" INTEGER,
    "rated" BOOLEAN NOT NULL DEFAULT false,
    "address" VARCHAR(64) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3),
    "creator_seen_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "target_seen_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "challenge_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "player_block" (
    "blocker_id" UUID NOT NULL,
    "blocked_id" UUID NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "player_block_pkey" PRIMARY KEY ("blocker_id","blocked_id")
);

-- CreateIndex
CREATE INDEX "challenge_creator_id_idx" ON "challenge"("creator_id");

-- CreateIndex
CREATE INDEX "challenge_target_id_idx" ON "challenge"("target_id");

-- CreateIndex
CREATE INDEX "challenge_address_idx" ON "challenge"("address");

-- CreateIndex
CREATE INDEX "player_block_blocked_id_idx" ON "player_block"("blocked_id");

-- AddForeignKey
ALTER TABLE "challenge" ADD CONSTRAINT "challenge_creator_id_fkey" FOREIGN KEY ("creator_id") REFERENCES "player"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "challenge" ADD CONSTRAINT "challenge_target_id_fkey" FOREIGN KEY ("target_id") REFERENCES "player"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "player_block" ADD CONSTRAINT "player_block_blocker_id_fkey" FOREIGN KEY ("blocker_id") REFERENCES "player"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "player_block" ADD CONSTRAINT "player_block_blocked_id_fkey" FOREIGN KEY ("blocked_id") REFERENCES "player"("id") ON DELETE CASCADE ON UPDATE CASCADE;
