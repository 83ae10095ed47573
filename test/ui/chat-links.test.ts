import { describe, expect, it } from 'vitest';
import { chatPieces } from '@/components/call/chat-links';

describe('links in chat messages', () => {
  it('makes http and https addresses links, keeping the words around them as text', () => {
    expect(chatPieces('see https://example.com/a?b=1 and http://x.test/ now')).toEqual([
      { text: 'see ' },
      { href: 'https://example.com/a?b=1', text: 'https://example.com/a?b=1' },
      { text: ' and ' },
      { href: 'http://x.test/', text: 'http://x.test/' },
      { text: ' now' },
    ]);
  });

  it('leaves a sentence’s closing punctuation out of the address, but not a bracket the address opened', () => {
    expect(chatPieces('Agenda: https://example.com/agenda?week=47, then (https://e.test/x).')).toEqual([
      { text: 'Agenda: ' },
      { href: 'https://example.com/agenda?week=47', text: 'https://example.com/agenda?week=47' },
      { text: ', then (' },
      { href: 'https://e.test/x', text: 'https://e.test/x' },
      { text: ').' },
    ]);
    expect(chatPieces('https://en.wikipedia.org/wiki/Foo_(bar)')).toEqual([
      { href: 'https://en.wikipedia.org/wiki/Foo_(bar)', text: 'https://en.wikipedia.org/wiki/Foo_(bar)' },
    ]);
  });

  it('never links another scheme, markup or something that is not an address', () => {
    for (const text of [
      'javascript:alert(1)',
      'data:text/html,<b>x</b>',
      '<a href="https://evil.test">x</a>',
      'ftp://files.test/x',
      'https://',
      'hello world',
    ])
      for (const piece of chatPieces(text)) if ('href' in piece) expect(piece.href).toMatch(/^https?:\/\/[^"<>]+$/);
    expect(chatPieces('javascript:alert(1)')).toEqual([{ text: 'javascript:alert(1)' }]);
    expect(chatPieces('https://')).toEqual([{ text: 'https://' }]);
    expect(chatPieces('<a href="https://evil.test">x</a>')).toEqual([
      { text: '<a href="' },
      { href: 'https://evil.test/', text: 'https://evil.test' },
      { text: '">x</a>' },
    ]);
  });
});
