-- The skeleton is now taken of the username as written, lowercased only
-- afterwards, so that a capital I meets an l ("miIIion" and "million"), and
-- small capitals and a dot above a dotless i are seen through. Every stored
-- skeleton was made the old way: they are emptied here, and the server
-- makes them again, by the new rules, before it serves (see
-- backfillUsernameSkeletons), as it did for accounts kept before skeletons.
UPDATE "player" SET "username_skeleton" = NULL WHERE "username_skeleton" IS NOT NULL;
