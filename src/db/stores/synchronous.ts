// The stores are declared as the services see them: every method answers with a
// promise, so that a database behind a network connection fits them as well as the
// embedded one does. SQLite's implementations answer synchronously (better-sqlite3
// is synchronous and that is where its speed comes from) and are lifted to promises
// in one place (repos/index.ts); `Synchronous<S>` is the shape they implement.

/** A store's methods answering directly instead of with a promise. */
export type Synchronous<S> = {
  [K in keyof S]: S[K] extends (...args: infer A) => Promise<infer R> ? (...args: A) => R : S[K];
};

/** A repository's methods answering with promises. */
export type Asynchronous<R> = {
  [K in keyof R]: R[K] extends (...args: infer A) => infer T ? (...args: A) => Promise<Awaited<T>> : R[K];
};
