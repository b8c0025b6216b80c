-- Every move rewrites clock_deadline. With an index on it, no move's update
-- could stay on its page (HOT): each wrote a new entry into every index of the
-- match table, which bloated them and slowed every later move. The sweep finds
-- due clocks among the matches in play, through the status index.
DROP INDEX "match_clock_deadline_idx";

-- Room on each page for a row's next version, so that a move's update stays
-- on its page and touches no index.
ALTER TABLE "match" SET (fillfactor = 70);
