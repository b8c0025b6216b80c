-- CreateEnum
CREATE TYPE "ChallengesFrom" AS ENUM ('everyone', 'accounts', 'following', 'nobody');

-- AlterTable
ALTER TABLE "player" ADD COLUMN     "challenges_from" "ChallengesFrom" NOT NULL DEFAULT 'everyone';

-- CreateTable
CREATE TABLE "follow" (
    "follower_id" UUID NOT NULL,
    "followee_id" UUID NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "follow_pkey" PRIMARY KEY ("follower_id","followee_id")
);

-- CreateIndex
CREATE INDEX "follow_followee_id_idx" ON "follow"("followee_id");

-- AddForeignKey
ALTER TABLE "follow" ADD CONSTRAINT "follow_follower_id_fkey" FOREIGN KEY ("follower_id") REFERENCES "player"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "follow" ADD CONSTRAINT "follow_followee_id_fkey" FOREIGN KEY ("followee_id") REFERENCES "player"("id") ON DELETE CASCADE ON UPDATE CASCADE;
