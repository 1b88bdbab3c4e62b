import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';

// The list behind "This password is too common.": Django's own common-passwords.txt.gz (20,000
// passwords, lower-cased, BSD-licensed; see lib/auth/common-passwords/), the list the reference
// service checked against. The CDK stack copies it next to the bundles of the functions that check
// passwords (infra/stack.ts BUNDLED_FILES), where it is looked for first.

export const COMMON_PASSWORDS_FILE = 'common-passwords.txt.gz';

/** Folder holding the list in the repository, and the folder it is copied to inside a bundle. */
export const COMMON_PASSWORDS_FOLDER = 'common-passwords';

/** The folder of the list in the repository (local runs, tests and the CDK synth). */
export function commonPasswordsSourceDirectory(): string {
  return join(dirname(fileURLToPath(import.meta.url)), COMMON_PASSWORDS_FOLDER);
}

let loaded: ReadonlySet<string> | undefined;

/** The common passwords, read once per instance (beside the bundle when deployed, else from the repository). */
export function commonPasswords(): ReadonlySet<string> {
  if (!loaded) {
    const bundled = join(dirname(fileURLToPath(import.meta.url)), COMMON_PASSWORDS_FOLDER, COMMON_PASSWORDS_FILE);
    const file = existsSync(bundled) ? bundled : join(commonPasswordsSourceDirectory(), COMMON_PASSWORDS_FILE);
    const lines = gunzipSync(readFileSync(file)).toString('utf8').split('\n');
    loaded = new Set(lines.map((line) => line.trim()).filter(Boolean));
  }
  return loaded;
}
