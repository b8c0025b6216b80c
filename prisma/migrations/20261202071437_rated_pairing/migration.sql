-- AlterTable
ALTER TABLE "match" ADD COLUMN     "pair_first_winner" SMALLINT,
ADD COLUMN     "pair_game" SMALLINT,
ADD COLUMN     "pair_start" JSONB;
