// A mistake in how the CLI was called (exit code 2, the message on stderr). Its own module so the
// dispatcher can name it without loading any subcommand's dependencies.
export class UsageError extends Error {}
