// The real command line from the source tree, for tests that spawn it: `node --import tsx test/cli/bin.ts …`.
import { runProcess } from "../../src/cli/main.ts";

await runProcess(process.argv.slice(2));
