import type { AuditEntry } from '@switchboard/contracts';
import { describe, expect, it } from 'vitest';
import { groupRuns } from './group-runs';

let id = 0;
function entry(patch: Partial<AuditEntry>): AuditEntry {
  id += 1;
  return {
    id,
    created_at: `2026-11-28T10:${String(60 - id).padStart(2, '0')}:00Z`,
    company_id: 1,
    actor_kind: 'user',
    actor_user_id: 7,
    actor_name: 'Dana Demo',
    api_key_id: null,
    operator_user_id: null,
    action: 'create',
    entity_type: 'token',
    entity_id: null,
    method: 'POST',
    path: '/api/companies/1/in-app-calling/token',
    status_code: 200,
    outcome: 'success',
    changes: null,
    ip: null,
    user_agent: null,
    ...patch,
  } as AuditEntry;
}

describe('groupRuns', () => {
  it('folds consecutive repeats of one person into one row with the count and the oldest time', () => {
    const a = entry({});
    const b = entry({});
    const c = entry({});
    const runs = groupRuns([a, b, c]);
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ entry: a, count: 3, oldestAt: c.created_at });
  });

  it('keeps other people, other actions and entries on an entity apart', () => {
    const runs = groupRuns([
      entry({}),
      entry({ actor_user_id: 8 }),
      entry({ action: 'update' }),
      entry({ entity_type: 'contacts', entity_id: '5', path: '/api/contacts/5' }),
      entry({ entity_type: 'contacts', entity_id: '5', path: '/api/contacts/5' }),
      entry({}),
    ]);
    expect(runs.map((r) => r.count)).toEqual([1, 1, 1, 1, 1, 1]);
  });
});
