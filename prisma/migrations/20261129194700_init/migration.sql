-- CreateTable
CREATE TABLE "player" (
    "id" UUID NOT NULL,
    "name" VARCHAR(32) NOT NULL,
    "token_hash" CHAR(64) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "player_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "player_token_hash_key" ON "player"("token_hash");
