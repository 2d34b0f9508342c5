// What a payment does to stock (docs/catalog.md#stock), as SQL the payment writer runs in the
// same transaction, and for /pay in the same statement, as the state change it follows:
//
// - `sale`: when a payment first becomes accepted or confirmed, each item line whose `id` is a
//   tracked product's SKU takes its count off that product. Refunds (refund_of set) take nothing.
// - `declined` / `returned`: when it is declined, or a refund returns its goods, what the sale
//   took and was not yet given back goes back.
//
// Once per payment, product and reason: the partial unique index stock_movement_payment_once_idx
// turns a retried or raced acceptance into a no-op (ON CONFLICT DO NOTHING), and stock moves
// only by the movements the statement actually inserted. Stock moves by `stock = stock + Δ`
// (never read, then written), so concurrent sales never lose a decrement; the movements are
// summed per product so that one statement moves each product row once, in product id order
// (the order its rows are locked in). A sale never fails for stock: the sum is clamped to the
// INTEGER column's range.
//
// The sale's CTEs (TAKE_SALE_CTES) are written once: TAKE_SALE_SQL runs them for one payment,
// and the /pay acceptance (lib/payments/accept-sql.ts) embeds them after its own `sx` of the
// payments it just accepted. The one-writer scan (tests/unit/one-writer.test.ts) reads each
// statement with its `${…}` fragments filled in.

/** Reasons a payment's movements carry (adjustments have their own, lib/stock/adjust.ts). */
export const SALE_REASONS = ['sale', 'declined', 'returned'] as const;
export type SaleReason = (typeof SALE_REASONS)[number];

/**
 * Moves each product by the sum of the movements `st_m` inserted: one UPDATE per product, in
 * product id order (the order its rows are locked in), clamped to the INTEGER column's range.
 */
const APPLY_MOVEMENTS_CTE = `
  st_p AS (
    UPDATE product pr SET stock = GREATEST(LEAST(pr.stock::bigint + d.delta, 2147483647), -2147483648)::int
      FROM (SELECT product_id, sum(delta)::bigint AS delta FROM st_m GROUP BY product_id ORDER BY product_id) d
     WHERE pr.id = d.product_id AND pr.stock IS NOT NULL
    RETURNING pr.id)`;

/**
 * The sale of the payments in `sx` (id, store_id, at, user_id): each item line whose `id` is a
 * tracked product's SKU in the payment's store takes its count off that product, once per
 * payment and product. A statement embeds these after its own `sx`; `st_m` holds the movements.
 */
export const TAKE_SALE_CTES = `
  st_l AS (
    SELECT x.id AS payment_id, x.store_id, x.at, x.user_id, pr.id AS product_id, sum(COALESCE(l.count, 1))::bigint AS n
      FROM sx x
      JOIN payment p ON p.id = x.id AND p.refund_of IS NULL
      JOIN payment_line l ON l.payment_id = x.id AND l.type = 'item'
      JOIN product pr ON pr.store_id = x.store_id AND pr.sku = l.item_id AND pr.stock IS NOT NULL
     GROUP BY x.id, x.store_id, x.at, x.user_id, pr.id),
  st_m AS (
    INSERT INTO stock_movement (store_id, product_id, at, delta, reason, user_id, payment_id)
    SELECT store_id, product_id, at::timestamptz, -LEAST(n, 2147483647)::int, 'sale', user_id, payment_id FROM st_l WHERE n > 0
    ON CONFLICT (payment_id, product_id, reason) WHERE payment_id IS NOT NULL DO NOTHING
    RETURNING product_id, delta),
  ${APPLY_MOVEMENTS_CTE}`;

/** Takes one payment's sale off stock ($1 payment id, $2 at). The sale's user is its creator. */
export const TAKE_SALE_SQL = `
  WITH sx AS (SELECT id, store_id, $2::timestamptz AS at, created_by AS user_id FROM payment WHERE id = $1),
  ${TAKE_SALE_CTES}
  SELECT count(*)::int AS n FROM st_m`;

/**
 * Gives back what a payment's sale took and was not yet given back ($1 payment id, $2 at,
 * $3 reason `declined` or `returned`, $4 user id or null, $5 note), once per reason.
 */
export const RETURN_SALE_SQL = `
  WITH net AS (
    SELECT store_id, product_id, -sum(delta)::bigint AS back FROM stock_movement
     WHERE payment_id = $1 AND reason IN ('sale', 'declined', 'returned')
     GROUP BY store_id, product_id),
  st_m AS (
    INSERT INTO stock_movement (store_id, product_id, at, delta, reason, note, user_id, payment_id)
    SELECT store_id, product_id, $2::timestamptz, LEAST(back, 2147483647)::int, $3::text, $5::text, (SELECT id FROM "user" WHERE id = $4::text), $1::text
      FROM net WHERE back > 0
    ON CONFLICT (payment_id, product_id, reason) WHERE payment_id IS NOT NULL DO NOTHING
    RETURNING product_id, delta),
  ${APPLY_MOVEMENTS_CTE}
  SELECT count(*)::int AS n FROM st_m`;
