// State kept per open database (its batchers, loaders, caches): made on first use, dropped
// with the database handle.
import type { Db } from './open';

/** A getter for the state `make` builds for each database, once per database. */
export function perDb<T extends object>(make: (db: Db) => T): (db: Db) => T {
  const byDb = new WeakMap<Db, T>();
  return (db) => {
    let v = byDb.get(db);
    if (!v) byDb.set(db, (v = make(db)));
    return v;
  };
}
