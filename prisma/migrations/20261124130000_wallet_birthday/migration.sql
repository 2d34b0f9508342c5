-- The node text API lists a block's records in block order, then vout (DESIGN.md §7, as
-- libdogecoin's spvnode does): each wallet tx and output keeps its tx's position in its block
-- (the merkleblock's match index on spv, the block's tx order on rpc and devnet). NULL for rows
-- recorded before this column existed, until a rescan (DESIGN.md §8 "Wallet history") fills it.
ALTER TABLE "wallet_tx" ADD COLUMN IF NOT EXISTS "block_pos" INTEGER;
ALTER TABLE "wallet_output" ADD COLUMN IF NOT EXISTS "block_pos" INTEGER;
