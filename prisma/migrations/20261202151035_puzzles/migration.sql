-- CreateTable
CREATE TABLE "puzzle" (
    "id" UUID NOT NULL,
    "rules" VARCHAR(64) NOT NULL,
    "position" VARCHAR(128) NOT NULL,
    "line" JSONB NOT NULL,
    "themes" TEXT[],
    "eval" DOUBLE PRECISION NOT NULL,
    "gap" DOUBLE PRECISION NOT NULL,
    "source" VARCHAR(16) NOT NULL,
    "match_id" UUID,
    "rating" DOUBLE PRECISION NOT NULL DEFAULT 1500,
    "deviation" DOUBLE PRECISION NOT NULL DEFAULT 350,
    "volatility" DOUBLE PRECISION NOT NULL DEFAULT 0.06,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "solved" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "puzzle_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "puzzle_solver" (
    "player_id" UUID NOT NULL,
    "rating" DOUBLE PRECISION NOT NULL DEFAULT 1500,
    "deviation" DOUBLE PRECISION NOT NULL DEFAULT 350,
    "volatility" DOUBLE PRECISION NOT NULL DEFAULT 0.06,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "solved" INTEGER NOT NULL DEFAULT 0,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "puzzle_solver_pkey" PRIMARY KEY ("player_id")
);

-- CreateTable
CREATE TABLE "puzzle_attempt" (
    "puzzle_id" UUID NOT NULL,
    "player_id" UUID NOT NULL,
    "solved" BOOLEAN NOT NULL,
    "rating_before" DOUBLE PRECISION NOT NULL,
    "rating_after" DOUBLE PRECISION NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "puzzle_attempt_pkey" PRIMARY KEY ("puzzle_id","player_id")
);

-- CreateTable
CREATE TABLE "daily_puzzle" (
    "day" DATE NOT NULL,
    "puzzle_id" UUID NOT NULL,

    CONSTRAINT "daily_puzzle_pkey" PRIMARY KEY ("day")
);

-- CreateTable
CREATE TABLE "puzzle_mining" (
    "match_id" UUID NOT NULL,
    "found" INTEGER NOT NULL DEFAULT 0,
    "mined_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "puzzle_mining_pkey" PRIMARY KEY ("match_id")
);

-- CreateIndex
CREATE INDEX "puzzle_rating_idx" ON "puzzle"("rating");

-- CreateIndex
CREATE UNIQUE INDEX "puzzle_rules_position_key" ON "puzzle"("rules", "position");

-- CreateIndex
CREATE INDEX "puzzle_attempt_player_id_created_at_idx" ON "puzzle_attempt"("player_id", "created_at");

-- AddForeignKey
ALTER TABLE "puzzle_solver" ADD CONSTRAINT "puzzle_solver_player_id_fkey" FOREIGN KEY ("player_id") REFERENCES "player"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "puzzle_attempt" ADD CONSTRAINT "puzzle_attempt_puzzle_id_fkey" FOREIGN KEY ("puzzle_id") REFERENCES "puzzle"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "puzzle_attempt" ADD CONSTRAINT "puzzle_attempt_player_id_fkey" FOREIGN KEY ("player_id") REFERENCES "player"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "daily_puzzle" ADD CONSTRAINT "daily_puzzle_puzzle_id_fkey" FOREIGN KEY ("puzzle_id") REFERENCES "puzzle"("id") ON DELETE CASCADE ON UPDATE CASCADE;
