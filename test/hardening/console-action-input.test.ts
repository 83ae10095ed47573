import { describe, expect, it } from 'vitest';
import { parseActionId, parseActionInput } from '@/lib/console/action-input';
import { updateTenantInput, provisionTenantInput } from '@/lib/domain/tenants.schemas';
import { ApiError } from '@/lib/errors';

// The console's tenant update (and every other action) refuses what PostgreSQL cannot store
// before any query: it answered INTERNAL for a NUL in the name.
function refusal(fn: () => unknown): ApiError {
  try {
    fn();
  } catch (err) {
    if (err instanceof ApiError) return err;
    throw err;
  }
  throw new Error('expected a refusal');
}

describe('console action input', () => {
  it('a NUL in the tenant name is VALIDATION_FAILED naming the field', () => {
    const err = refusal(() => parseActionInput(updateTenantInput, { name: 'Acme\u0000' }));
    expect([err.code, err.details?.[0]?.field]).toEqual(['VALIDATION_FAILED', 'name']);
  });
  it('an unpaired surrogate in a nested override, or deep nesting, is refused the same way', () => {
    expect(
      refusal(() => parseActionInput(provisionTenantInput, { name: 'x', frameAncestors: ['https://a.example\ud800'] }))
        .details?.[0]?.field,
    ).toBe('frameAncestors.0');
    let deep: unknown = 1;
    for (let i = 0; i < 100; i++) deep = { a: deep };
    expect(refusal(() => parseActionInput(updateTenantInput, { entitlementOverrides: deep })).code).toBe(
      'VALIDATION_FAILED',
    );
  });
  it('good input passes through the API schema', () => {
    expect(parseActionInput(updateTenantInput, { name: '  Acme  ' })).toEqual({ name: 'Acme' });
  });
  it('an id that cannot be ours is NOT_FOUND', () => {
    expect(refusal(() => parseActionId('tenant\u0000')).code).toBe('NOT_FOUND');
    expect(refusal(() => parseActionId('x'.repeat(500))).code).toBe('NOT_FOUND');
    expect(parseActionId('cmwto1w66000ix17d2tbw10wj')).toBe('cmwto1w66000ix17d2tbw10wj');
  });
});
