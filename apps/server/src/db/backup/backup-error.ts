/** What the backup and restore commands refuse or fail with: said to the operator as it is, and the command exits 1. */
export class BackupError extends Error {}

/** Where a finished file appears only once it is whole: a backup cut short never passes for one. */
export const partialPath = (file: string) => `${file}.partial`;
