import { describe, expect, it } from 'vitest';
import { DEFAULT_FACTS, factsFromMetadata } from '@/lib/domain/join-token';

// The spec's fallback for the metadata claim, as the call UI reads it for itself and for others.
describe('room facts from a metadata claim', () => {
  it('reads a versioned claim and ignores unknown fields and wrong types', () => {
    const facts = factsFromMetadata(
      JSON.stringify({ metaVersion: 1, role: 'HOST', enableChat: false, enableE2EE: 'yes', somethingNew: 42 }),
    );
    expect(facts).toEqual({ ...DEFAULT_FACTS, metaVersion: 1, role: 'HOST', enableChat: false });
  });

  it('without metaVersion, or unreadable, every fact is a default', () => {
    for (const metadata of [
      JSON.stringify({ role: 'HOST', enableChat: false }),
      'not json',
      'null',
      '5',
      '',
      undefined,
    ]) {
      expect(factsFromMetadata(metadata)).toEqual(DEFAULT_FACTS);
    }
  });
});
