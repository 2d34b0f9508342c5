-- The last rate that two or more sources agreed on, per currency (docs/api.md, "Exchange
-- rates"): the worker saves it after each refresh in which two or more sources were fresh. When
-- only one of several configured sources is fresh, that one is used only while it lies within
-- ±20% of this median and the median is at most 6 × RATE_MAX_AGE_SEC old.
-- `value_at` is the oldest fetch among the sources the median was taken of.
CREATE TABLE "rate_median" (
    "currency" TEXT NOT NULL,
    "value" TEXT NOT NULL,
    "value_at" TIMESTAMPTZ(3) NOT NULL,
    "sources" TEXT NOT NULL DEFAULT '',
    "saved_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "rate_median_pkey" PRIMARY KEY ("currency")
);
