/** A mistake in how the command was called, or a path it cannot read: exit 2 with this one line. */
export class UsageError extends Error {}
