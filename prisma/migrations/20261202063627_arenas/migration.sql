-- CreateTable
CREATE TABLE "arena" (
    "id" UUID NOT NULL,
    "code" VARCHAR(16) NOT NULL,
    "name" VARCHAR(48) NOT NULL,
    "pool" VARCHAR(8) NOT NULL,
    "rules" JSONB NOT NULL,
    "rated" BOOLEAN NOT NULL DEFAULT false,
    "starts_at" TIMESTAMPTZ(3) NOT NULL,
    "ends_at" TIMESTAMPTZ(3) NOT NULL,
    "finished_at" TIMESTAMPTZ(3),
    "schedule" VARCHAR(24),
    "created_by_id" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "arena_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "arena_player" (
    "arena_id" UUID NOT NULL,
    "player_id" UUID NOT NULL,
    "active" BOOLEAN NOT NULL DEFAULT true,
    "active_since" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "rating" DOUBLE PRECISION NOT NULL,
    "joined_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "arena_player_pkey" PRIMARY KEY ("arena_id","player_id")
);

-- CreateTable
CREATE TABLE "arena_game" (
    "match_id" UUID NOT NULL,
    "arena_id" UUID NOT NULL,
    "player0_id" UUID NOT NULL,
    "player1_id" UUID NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "arena_game_pkey" PRIMARY KEY ("match_id")
);

-- CreateIndex
CREATE UNIQUE INDEX "arena_code_key" ON "arena"("code");

-- CreateIndex
CREATE INDEX "arena_finished_at_starts_at_idx" ON "arena"("finished_at", "starts_at");

-- CreateIndex
CREATE INDEX "arena_created_by_id_idx" ON "arena"("created_by_id");

-- CreateIndex
CREATE UNIQUE INDEX "arena_schedule_starts_at_key" ON "arena"("schedule", "starts_at");

-- CreateIndex
CREATE INDEX "arena_player_player_id_idx" ON "arena_player"("player_id");

-- CreateIndex
CREATE INDEX "arena_game_arena_id_created_at_idx" ON "arena_game"("arena_id", "created_at");

-- AddForeignKey
ALTER TABLE "arena" ADD CONSTRAINT "arena_created_by_id_fkey" FOREIGN KEY ("created_by_id") REFERENCES "player"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "arena_player" ADD CONSTRAINT "arena_player_arena_id_fkey" FOREIGN KEY ("arena_id") REFERENCES "arena"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "arena_player" ADD CONSTRAINT "arena_player_player_id_fkey" FOREIGN KEY ("player_id") REFERENCES "player"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "arena_game" ADD CONSTRAINT "arena_game_arena_id_fkey" FOREIGN KEY ("arena_id") REFERENCES "arena"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "arena_game" ADD CONSTRAINT "arena_game_match_id_fkey" FOREIGN KEY ("match_id") REFERENCES "match"("id") ON DELETE CASCADE ON UPDATE CASCADE;
