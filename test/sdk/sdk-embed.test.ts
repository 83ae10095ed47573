/**
 * @convene/sdk/embed without a browser: a minimal window stands in (the browser run of the same
 * protocol, through /embed.js, is e2e/embed-api.spec.ts). Events are taken only from the frame it
 * made at the join URL's origin; commands go only to that frame at that origin.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { IFRAME_ALLOW, mountCall, type CallEventName } from '../../sdk/src/embed';
import { renderSdkEmbedMessages, SDK_EMBED_MESSAGES_FILE } from '../../scripts/generate-sdk-embed';

function fakeWindow() {
  const handlers = new Set<(e: MessageEvent) => void>();
  const frameWindow = { postMessage: vi.fn() };
  const iframe = {
    style: {} as Record<string, string>,
    contentWindow: frameWindow,
    remove: vi.fn(),
  } as unknown as HTMLIFrameElement & { contentWindow: typeof frameWindow };
  const win = {
    location: { href: 'https://lms.example.edu/course/1' },
    document: { createElement: () => iframe },
    addEventListener: (_: string, fn: (e: MessageEvent) => void) => handlers.add(fn),
    removeEventListener: (_: string, fn: (e: MessageEvent) => void) => handlers.delete(fn),
  } as unknown as Window;
  const dispatch = (e: Partial<MessageEvent>) => handlers.forEach((fn) => fn(e as MessageEvent));
  const container = { appendChild: vi.fn() } as unknown as HTMLElement;
  return { win, iframe, frameWindow, dispatch, handlers, container };
}

describe('@convene/sdk/embed', () => {
  it('mounts the frame with the call permissions and hears only its frame at the join origin', () => {
    const f = fakeWindow();
    const call = mountCall(
      f.container,
      { url: 'https://meet.example.com/join?token=t&url=wss%3A%2F%2Fm#e2ee-key' },
      f.win,
    );
    expect(f.container.appendChild).toHaveBeenCalledWith(f.iframe);
    expect(f.iframe.allow).toBe(IFRAME_ALLOW);
    expect(f.iframe.src).toBe('https://meet.example.com/join?token=t&url=wss%3A%2F%2Fm#e2ee-key');
    expect(f.iframe.referrerPolicy).toBe('origin');

    const left = vi.fn();
    const any = vi.fn();
    call.on('left', left).onAny(any);
    const msg = { source: 'convene', version: 1, event: 'left', data: { reason: 'removed' } };
    f.dispatch({ source: f.frameWindow as unknown as Window, origin: 'https://meet.example.com', data: msg });
    f.dispatch({ source: {} as Window, origin: 'https://meet.example.com', data: msg }); // another window
    f.dispatch({ source: f.frameWindow as unknown as Window, origin: 'https://evil.example', data: msg }); // another origin
    f.dispatch({
      source: f.frameWindow as unknown as Window,
      origin: 'https://meet.example.com',
      data: { event: 'left' },
    }); // not the protocol
    expect(left).toHaveBeenCalledTimes(1);
    expect(left).toHaveBeenCalledWith({ reason: 'removed' }, 'left');
    expect(any).toHaveBeenCalledWith('left' satisfies CallEventName, { reason: 'removed' });
  });

  it('sends commands to the frame at the join origin only; destroy stops listening', () => {
    const f = fakeWindow();
    const call = mountCall(f.container, { url: 'https://meet.example.com/join?token=t' }, f.win);
    call.toggleMicrophone();
    call.toggleCamera();
    call.setDisplayName('Ada');
    call.leave();
    expect(f.frameWindow.postMessage.mock.calls).toEqual([
      [{ source: 'convene-embed', command: 'toggle-microphone' }, 'https://meet.example.com'],
      [{ source: 'convene-embed', command: 'toggle-camera' }, 'https://meet.example.com'],
      [{ source: 'convene-embed', command: 'set-display-name', displayName: 'Ada' }, 'https://meet.example.com'],
      [{ source: 'convene-embed', command: 'leave' }, 'https://meet.example.com'],
    ]);
    call.destroy();
    expect(f.handlers.size).toBe(0);
    expect(f.iframe.remove).toHaveBeenCalled();
    expect(() => mountCall(f.container, { url: 'javascript:alert(1)' }, f.win)).toThrow(TypeError);
  });
});

describe("the SDK's copy of the protocol's messages", () => {
  it('is lib/embed/messages.ts as it is now (stale: run `npm run sdk:generate`)', () => {
    // The call UI and the SDK must speak the same events and commands: one source, copied.
    expect(readFileSync(SDK_EMBED_MESSAGES_FILE, 'utf8')).toBe(renderSdkEmbedMessages());
  });
});
