-- CreateEnum
CREATE TYPE "MatchStatus" AS ENUM ('waiting', 'opener', 'playing', 'ended');

-- CreateTable
CREATE TABLE "room" (
    "id" UUID NOT NULL,
    "code" VARCHAR(16) NOT NULL,
    "rules" JSONB NOT NULL,
    "initial_ms" INTEGER,
    "increment_ms" INTEGER,
    "created_by_id" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "room_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "match" (
    "id" UUID NOT NULL,
    "room_id" UUID NOT NULL,
    "number" INTEGER NOT NULL,
    "status" "MatchStatus" NOT NULL DEFAULT 'waiting',
    "rules" JSONB NOT NULL,
    "player0_id" UUID,
    "player1_id" UUID,
    "first" SMALLINT,
    "version" INTEGER NOT NULL DEFAULT 0,
    "position" JSONB NOT NULL,
    "winner" SMALLINT,
    "end_reason" VARCHAR(16),
    "score0" INTEGER,
    "score1" INTEGER,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "started_at" TIMESTAMPTZ(3),
    "ended_at" TIMESTAMPTZ(3),

    CONSTRAINT "match_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "opener_round" (
    "match_id" UUID NOT NULL,
    "round" INTEGER NOT NULL,
    "choice0" VARCHAR(8),
    "choice1" VARCHAR(8),
    "winner" SMALLINT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "decided_at" TIMESTAMPTZ(3),

    CONSTRAINT "opener_round_pkey" PRIMARY KEY ("match_id","round")
);

-- CreateTable
CREATE TABLE "move" (
    "id" UUID NOT NULL,
    "match_id" UUID NOT NULL,
    "ply" INTEGER NOT NULL,
    "move_id" VARCHAR(64) NOT NULL,
    "player_id" UUID NOT NULL,
    "square" SMALLINT NOT NULL,
    "dir" SMALLINT NOT NULL,
    "version" INTEGER NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "move_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "match_event" (
    "match_id" UUID NOT NULL,
    "version" INTEGER NOT NULL,
    "payload" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "match_event_pkey" PRIMARY KEY ("match_id","version")
);

-- CreateIndex
CREATE UNIQUE INDEX "room_code_key" ON "room"("code");

-- CreateIndex
CREATE INDEX "match_status_idx" ON "match"("status");

-- CreateIndex
CREATE UNIQUE INDEX "match_room_id_number_key" ON "match"("room_id", "number");

-- CreateIndex
CREATE UNIQUE INDEX "move_match_id_ply_key" ON "move"("match_id", "ply");

-- CreateIndex
CREATE UNIQUE INDEX "move_match_id_move_id_key" ON "move"("match_id", "move_id");

-- AddForeignKey
ALTER TABLE "room" ADD CONSTRAINT "room_created_by_id_fkey" FOREIGN KEY ("created_by_id") REFERENCES "player"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "match" ADD CONSTRAINT "match_room_id_fkey" FOREIGN KEY ("room_id") REFERENCES "room"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "match" ADD CONSTRAINT "match_player0_id_fkey" FOREIGN KEY ("player0_id") REFERENCES "player"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "match" ADD CONSTRAINT "match_player1_id_fkey" FOREIGN KEY ("player1_id") REFERENCES "player"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "opener_round" ADD CONSTRAINT "opener_round_match_id_fkey" FOREIGN KEY ("match_id") REFERENCES "match"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "move" ADD CONSTRAINT "move_match_id_fkey" FOREIGN KEY ("match_id") REFERENCES "match"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "move" ADD CONSTRAINT "move_player_id_fkey" FOREIGN KEY ("player_id") REFERENCES "player"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "match_event" ADD CONSTRAINT "match_event_match_id_fkey" FOREIGN KEY ("match_id") REFERENCES "match"("id") ON DELETE CASCADE ON UPDATE CASCADE;
