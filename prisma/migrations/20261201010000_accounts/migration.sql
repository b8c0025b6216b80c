-- Accounts: a username and an Argon2id password on the player, and sessions
-- in a table of their own. Every guest's existing token becomes a session,
-- so nobody is signed out and nothing a guest played is lost.

-- AlterTable
ALTER TABLE "player" ADD COLUMN     "password_hash" VARCHAR(255),
ADD COLUMN     "username" VARCHAR(24),
ADD COLUMN     "username_key" VARCHAR(24);

-- AlterTable
ALTER TABLE "queue_entry" ADD COLUMN     "rated" BOOLEAN NOT NULL DEFAULT false;

-- CreateTable
CREATE TABLE "session" (
    "id" UUID NOT NULL,
    "token_hash" CHAR(64) NOT NULL,
    "player_id" UUID NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_seen_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "revoked_at" TIMESTAMPTZ(3),

    CONSTRAINT "session_pkey" PRIMARY KEY ("id")
);

-- Guest tokens never expired before: give them a year from today, which
-- slides forward on every visit like any session's expiry.
INSERT INTO "session" ("id", "token_hash", "player_id", "created_at", "last_seen_at", "expires_at")
SELECT gen_random_uuid(), "token_hash", "id", "created_at", CURRENT_TIMESTAMP, CURRENT_TIMESTAMP + INTERVAL '365 days'
FROM "player";

-- DropIndex
DROP INDEX "player_token_hash_key";

-- AlterTable
ALTER TABLE "player" DROP COLUMN "token_hash";

-- CreateIndex
CREATE UNIQUE INDEX "session_token_hash_key" ON "session"("token_hash");

-- CreateIndex
CREATE INDEX "session_player_id_idx" ON "session"("player_id");

-- CreateIndex
CREATE INDEX "session_expires_at_idx" ON "session"("expires_at");

-- CreateIndex
CREATE INDEX "session_revoked_at_idx" ON "session"("revoked_at");

-- CreateIndex
CREATE UNIQUE INDEX "player_username_key_key" ON "player"("username_key");

-- AddForeignKey
ALTER TABLE "session" ADD CONSTRAINT "session_player_id_fkey" FOREIGN KEY ("player_id") REFERENCES "player"("id") ON DELETE CASCADE ON UPDATE CASCADE;
