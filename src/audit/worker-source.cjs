// The audit's worker when faultline runs from its source tree (tests, `npx tsx`), not from dist/:
// Node 20 applies the loader hooks of `--import tsx` to the main thread only, so a worker thread
// loads the TypeScript through tsx's require hook instead. dist/ runs worker.js directly.
require("tsx/cjs");
module.exports = require("./worker.ts");
