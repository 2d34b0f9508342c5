// lib/stock: a product's stock and its movements (docs/catalog.md#stock). The only writer of
// stock_movement and of product.stock's moves (tests/unit/one-writer.test.ts), besides the /pay
// acceptance statement, which carries the sale's CTEs (lib/payments/accept-sql.ts).
export { takeSaleStock, returnSaleStock, type StockTx } from './sale';

export { parseAdjustment, adjustStock, setStockCount, untrackStock, recordImportCounts } from './adjust';
export { stockOf, trackedProducts, lowStockCount, type StockView, type TrackedProduct } from './query';
export { TAKE_SALE_CTES } from './sale-sql';
