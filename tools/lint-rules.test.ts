/**
 * The architecture's dependency rules are enforced by eslint.config.js; these tests lint small
 * snippets placed at real paths and check each rule fires (and stays quiet for allowed imports).
 */
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const eslint = new ESLint({ cwd: process.cwd() });

async function ruleIds(code: string, filePath: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).map((m) => `${m.ruleId}: ${m.message}`);
}

describe('architecture lint rules', () => {
  it('keeps the twilio SDK inside carriers/twilio', async () => {
    expect(await ruleIds("import twilio from 'twilio';\nexport const x = twilio;\n", 'apps/server/src/modules/calls/x.service.ts')).toEqual([
      expect.stringContaining('carriers/twilio'),
    ]);
    expect(await ruleIds("import twilio from 'twilio';\nexport const x = twilio;\n", 'apps/server/src/carriers/twilio/x.ts')).toEqual([]);
  });

  it('allows SQL only in repositories', async () => {
    const code = "import { sql } from 'kysely';\nexport const q = sql`select 1`;\n";
    expect(await ruleIds(code, 'apps/server/src/modules/calls/x.service.ts')).toEqual([expect.stringContaining('repository')]);
    expect(await ruleIds(code, 'apps/server/src/modules/calls/x.repository.ts')).toEqual([]);
    expect(await ruleIds("import type { Kysely } from 'kysely';\nexport type K = Kysely<unknown>;\n", 'apps/server/src/modules/calls/x.service.ts')).toEqual(
      [],
    );
  });

  it("forbids a module from importing another module's repository or routes", async () => {
    expect(
      await ruleIds(
        "import { numbersRepository } from '../numbers/numbers.repository.js';\nexport const r = numbersRepository;\n",
        'apps/server/src/modules/calls/x.service.ts',
      ),
    ).toEqual([expect.stringContaining('service')]);
    expect(
      await ruleIds("import { getNumber } from '../numbers/numbers.service.js';\nexport const r = getNumber;\n", 'apps/server/src/modules/calls/x.service.ts'),
    ).toEqual([]);
  });

  it('keeps platform below modules', async () => {
    expect(await ruleIds("import { x } from '../modules/calls/calls.service.js';\nexport const y = x;\n", 'apps/server/src/platform/x.ts')).toEqual([
      expect.stringContaining('platform/'),
    ]);
  });

  it('forbids features from importing other features, and shared code from importing features', async () => {
    expect(await ruleIds("import { x } from '../../numbers/api/get-numbers';\nexport const y = x;\n", 'apps/web/src/features/inbox/components/X.tsx')).toEqual([
      expect.stringContaining('Features never import other features'),
    ]);
    expect(await ruleIds("import { x } from '../api/get-conversations';\nexport const y = x;\n", 'apps/web/src/features/inbox/components/X.tsx')).toEqual([]);
    expect(await ruleIds("import { x } from '../features/inbox/api/get-conversations';\nexport const y = x;\n", 'apps/web/src/lib/x.ts')).toEqual([
      expect.stringContaining('must not import features'),
    ]);
  });

  it('keeps the domain package free of I/O', async () => {
    expect(await ruleIds("import fs from 'node:fs';\nexport const y = fs;\n", 'packages/domain/src/x.ts')).toEqual([expect.stringContaining('no I/O')]);
  });
});
