// Words for the codes the back office shows (statuses, exceptions, delivery states, roles), from
// the "admin" messages; a code the catalog does not know is shown as it is (it is data).

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyT = { (key: any, values?: any): string; has(key: any): boolean };

function label(t: AnyT, key: string, fallback: string): string {
  return t.has(key) ? t(key) : fallback;
}

/** "confirmed" → "bestätigt". */
export const statusLabel = (t: AnyT, status: string) => label(t, `status_${status}`, status);
/** "double_spent" → "double spent" / "doppelt ausgegeben" (unknown ones: the first "_" a space, as before). */
export const exceptionLabel = (t: AnyT, exception: string) => label(t, `exc_${exception}`, exception.replace('_', ' '));
/** A webhook delivery's state: "delivered" → "zugestellt". */
export const deliveryLabel = (t: AnyT, state: string) => label(t, `delivery_${state}`, state);
/** "manager" → "Leitung". */
export const roleLabel = (t: AnyT, role: string) => label(t, `role_${role}`, role);
