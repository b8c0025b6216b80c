-- Usernames unique by what they look like (the confusable skeleton of
-- UTS #39). The key and the skeleton can both be longer than the username
-- ("İ" lowercases to two characters). The skeletons of existing accounts
-- need Unicode's tables, so the server fills them in when it starts (see
-- backfillUsernameSkeletons).

-- AlterTable
ALTER TABLE "player" ADD COLUMN     "username_skeleton" TEXT,
ALTER COLUMN "username_key" SET DATA TYPE TEXT;

-- CreateIndex
CREATE UNIQUE INDEX "player_username_skeleton_key" ON "player"("username_skeleton");
