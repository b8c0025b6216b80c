-- A closed account keeps its emptied row (see Player.closedAt).
-- AlterTable
ALTER TABLE "player" ADD COLUMN     "closed_at" TIMESTAMPTZ(3);
