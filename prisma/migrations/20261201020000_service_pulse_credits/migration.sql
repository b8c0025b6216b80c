-- How many outages have been credited: a process that was silent itself
-- forgets the match rows it holds only when a credit changed them meanwhile.
ALTER TABLE "service_pulse" ADD COLUMN "credits" INTEGER NOT NULL DEFAULT 0;
