// The faultline CLI from the source tree in a process of its own, for the tests that need one
// (signals): `node --import tsx test/serve/cli-entry.ts serve …`.
import { main } from "../../src/cli/main.ts";

process.exitCode = await main(process.argv.slice(2));
