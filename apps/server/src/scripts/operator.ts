/**
 * Command-line task that grants or revokes the operator flag (`users.is_operator`; docs/auth.md "Operators",
 * "Admin mode"). There is no API for it on purpose: whoever runs the install decides.
 *
 *   npm run operator -w apps/server -- grant ops@example.com
 *   npm run operator -w apps/server -- revoke ops@example.com
 *   npm run operator -w apps/server -- list
 *
 * Uses DATABASE_URL when set, else the embedded PostgreSQL under DATA_DIR (stop the server first: one process
 * owns the embedded database). Exit code 1 on an unknown e-mail or command.
 */
import { loadConfig } from '../platform/config.js';
import { createDb } from '../platform/db/db.js';
import { openDatabase } from '../platform/db/database.js';

const [command, emailArg] = process.argv.slice(2);
if (!command || !['grant', 'revoke', 'list'].includes(command) || (command !== 'list' && !emailArg)) {
  console.error('Usage: operator grant <email> | operator revoke <email> | operator list');
  process.exit(1);
}
const config = loadConfig();
const database = await openDatabase(config.databaseUrl, config.dataDir);
const { db } = createDb(database.url);
let code = 0;
try {
  if (command === 'list') {
    const rows = await db.selectFrom('users').select(['id', 'email']).where('is_operator', '=', true).orderBy('id').execute();
    for (const r of rows) console.log(`${r.id}\t${r.email}`);
    if (!rows.length) console.log('No operators.');
  } else {
    const email = emailArg!.trim().toLowerCase();
    const r = await db
      .updateTable('users')
      .set({ is_operator: command === 'grant' })
      .where((eb) => eb(eb.fn('lower', ['email']), '=', email))
      .executeTakeFirst();
    if (Number(r.numUpdatedRows) === 0) {
      console.error(`No user with the e-mail ${email}.`);
      code = 1;
    } else {
      console.log(`${email} ${command === 'grant' ? 'is now an operator' : 'is no longer an operator'}.`);
    }
  }
} finally {
  await db.destroy();
  await database.stop();
}
process.exit(code);
