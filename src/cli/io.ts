// What a command writes to. main() passes the process's streams; tests pass buffers.

export interface Io {
  out(text: string): void;
  err(text: string): void;
}

export const processIo: Io = {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
};

/** Exit codes: 0 ok, 1 an internal failure, 2 bad input (a usage error or an invalid file). */
export const EXIT_OK = 0;
export const EXIT_INTERNAL = 1;
export const EXIT_BAD_INPUT = 2;

/** A user error that ends the command with exit code 2 and this one-line message. */
export class UsageError extends Error {}
