-- Tips on the customer's display (docs/counter.md#tips-on-the-customers-display). The store
-- offers three tip percentages; the till's wait for the customer's choice lives beside its
-- published cart, so that the display learns of it through the same `display_changed`
-- announcement (an UPDATE of display_cart) and the display's tip route can tell whether its
-- till waits: NULL when it does not.
ALTER TABLE "store" ADD COLUMN "tip_percents" JSONB NOT NULL DEFAULT '[10, 15, 20]'::jsonb;
ALTER TABLE "display_cart" ADD COLUMN "tip" JSONB;
