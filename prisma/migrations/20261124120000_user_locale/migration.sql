-- Languages (DESIGN.md §9): each user's language for the till and the back office, one of
-- 'en', 'es', 'de', 'pt'; '' = not chosen yet, taken from the browser's Accept-Language.
ALTER TABLE "user" ADD COLUMN "locale" TEXT NOT NULL DEFAULT '';
