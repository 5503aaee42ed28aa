// Moved to run/simulate.ts (the run is wiring only); the programmatic API is src/index.ts. This
// re-export keeps the imports of branches written against the old path working until they are
// merged; delete it once nothing imports "simulate.ts".

export * from "./run/simulate.ts";
