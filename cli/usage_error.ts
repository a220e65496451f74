/**
 * The error of a command-line flag, config file key or environment value browxai cannot use.
 *
 * @module
 */

/** A command-line or environment value browxai cannot use (main.ts: the message, usage, exit 2). */
export class UsageError extends Error {}
