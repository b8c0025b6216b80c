-- A stored `moved` event carries the move and the clocks only: the ply's
-- events, the position after it and the move's name follow from the rules
-- (docs/protocol.md, "Moves on the wire"). Events stored before keep what
-- a client still reads of them, so a sync across the change answers them in
-- the same shape as new ones.
UPDATE "match_event"
SET "payload" = jsonb_set(
  "payload",
  '{event}',
  jsonb_build_object(
    'type', 'moved',
    'square', "payload" #> '{event,move,square}',
    'dir', "payload" #> '{event,move,dir}',
    'clocks', "payload" #> '{event,clocks}'
  )
)
WHERE "payload" #>> '{event,type}' = 'moved' AND "payload" #> '{event,move}' IS NOT NULL;
