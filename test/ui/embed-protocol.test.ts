import { describe, expect, it } from 'vitest';
import { allowedParentOrigin, eventMessage, originAllowed, parseCommand } from '@/lib/embed/protocol';
import { contrastRatio } from '@/lib/domain/branding.schemas';

describe('the embedding protocol', () => {
  it('talks only to allowed origins: exact, or a *.host wildcard as CSP reads it', () => {
    const list = ['https://lms.example.edu', 'https://*.acme.example', 'http://127.0.0.1:4000'];
    expect(originAllowed('https://lms.example.edu', list)).toBe(true);
    expect(originAllowed('https://lms.example.edu:8443', list)).toBe(false);
    expect(originAllowed('http://lms.example.edu', list)).toBe(false);
    expect(originAllowed('https://app.acme.example', list)).toBe(true);
    expect(originAllowed('https://acme.example', list)).toBe(false);
    expect(originAllowed('https://evilacme.example', list)).toBe(false);
    expect(originAllowed('http://127.0.0.1:4000', list)).toBe(true);
    expect(originAllowed('http://localhost:4000', list)).toBe(false);
    expect(originAllowed('null', list)).toBe(false);
    expect(originAllowed('https://lms.example.edu/path', list)).toBe(false);
  });

  it('finds the parent origin from the browser, else the referrer, and only if allowed and framed', () => {
    const allowlist = ['https://lms.example.edu'];
    expect(
      allowedParentOrigin({ framed: true, ancestorOrigin: 'https://lms.example.edu', referrer: null, allowlist }),
    ).toBe('https://lms.example.edu');
    expect(
      allowedParentOrigin({
        framed: true,
        ancestorOrigin: null,
        referrer: 'https://lms.example.edu/course/1',
        allowlist,
      }),
    ).toBe('https://lms.example.edu');
    expect(
      allowedParentOrigin({
        framed: true,
        ancestorOrigin: 'https://evil.example',
        referrer: 'https://lms.example.edu/',
        allowlist,
      }),
    ).toBeNull();
    expect(
      allowedParentOrigin({ framed: false, ancestorOrigin: null, referrer: 'https://lms.example.edu/', allowlist }),
    ).toBeNull();
    expect(allowedParentOrigin({ framed: true, ancestorOrigin: null, referrer: null, allowlist })).toBeNull();
  });

  it('reads commands, refuses malformed ones, ignores other messages', () => {
    expect(parseCommand({ source: 'convene-embed', command: 'leave' })).toEqual({ command: 'leave' });
    expect(parseCommand({ source: 'convene-embed', command: 'set-display-name', displayName: ' Ada ' })).toEqual({
      command: 'set-display-name',
      displayName: 'Ada',
    });
    expect(parseCommand({ source: 'convene-embed', command: 'set-display-name', displayName: '' })).toEqual({
      command: 'set-display-name',
      invalid: true,
    });
    expect(parseCommand({ source: 'convene-embed', command: 'format-disk' })).toEqual({
      command: 'format-disk',
      invalid: true,
    });
    expect(parseCommand({ source: 'other', command: 'leave' })).toBeNull();
    expect(parseCommand('leave')).toBeNull();
    expect(eventMessage('left', { reason: 'removed' })).toEqual({
      source: 'convene',
      version: 1,
      event: 'left',
      data: { reason: 'removed' },
    });
  });

  it('computes WCAG contrast ratios', () => {
    expect(contrastRatio('#000000', '#ffffff')).toBe(21);
    expect(contrastRatio('#1d4ed8', '#ffffff')).toBeGreaterThan(6);
    expect(contrastRatio('#ffffff', '#ffffff')).toBe(1);
  });
});
