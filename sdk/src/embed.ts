/**
 * @convene/sdk/embed: mount the hosted call UI in an iframe and speak its postMessage protocol
 * (the same as the served /embed.js; protocol version 1, see the API's docs/hosted-ui.md).
 * Browser only; the page's origin must be in the tenant's frameAncestors.
 *
 *   const call = mountCall(document.getElementById('meeting')!, { url: joinUrl });
 *   call.on('left', ({ reason }) => ...);
 *   call.toggleMicrophone();
 */
import {
  COMMAND_SOURCE,
  EVENT_SOURCE,
  type EmbedCommand,
  type EmbedEvents,
  type LeftReason,
} from './generated/embed-messages.js';

export type { LeftReason };
/** What the call tells your page, by event name. */
export type CallEvents = EmbedEvents;
export type CallEventName = keyof CallEvents;

export interface MountOptions {
  /** A joinUrl or admissionUrl from the API, with its #fragment (E2EE key or admission secret). */
  url: string;
  /** The iframe's accessible name (default "Meeting"). */
  title?: string;
  width?: string;
  height?: string;
}

export interface MountedCall {
  readonly iframe: HTMLIFrameElement;
  on<E extends CallEventName>(event: E, listener: (data: CallEvents[E]) => void): MountedCall;
  off<E extends CallEventName>(event: E, listener: (data: CallEvents[E]) => void): MountedCall;
  /** Every event, with its name. */
  onAny(listener: (event: CallEventName, data: CallEvents[CallEventName]) => void): MountedCall;
  leave(): void;
  toggleMicrophone(): void;
  toggleCamera(): void;
  /** Only where the participant's token allows it; else a `command-failed` event (reason not-allowed). */
  setDisplayName(displayName: string): void;
  destroy(): void;
}

/** What a call needs from the frame: camera, microphone, screen share, autoplay, fullscreen, clipboard. */
export const IFRAME_ALLOW = 'camera; microphone; display-capture; autoplay; fullscreen; clipboard-write';

type Listener = (data: unknown, event: CallEventName) => void;

export function mountCall(container: HTMLElement, options: MountOptions, win: Window = window): MountedCall {
  const target = new URL(options.url, win.location.href);
  if (target.protocol !== 'https:' && target.protocol !== 'http:')
    throw new TypeError('mountCall: the URL must be http(s)');
  const origin = target.origin;
  const listeners = new Map<string, Set<Listener>>();
  const iframe = win.document.createElement('iframe');
  iframe.src = target.toString();
  iframe.allow = IFRAME_ALLOW;
  iframe.allowFullscreen = true;
  // The call UI checks which origin frames it; Firefox tells it only through the referrer.
  iframe.referrerPolicy = 'origin';
  iframe.title = options.title ?? 'Meeting';
  iframe.style.border = '0';
  iframe.style.width = options.width ?? '100%';
  iframe.style.height = options.height ?? '100%';
  container.appendChild(iframe);

  const emit = (event: CallEventName, data: unknown) => {
    for (const key of [event, '*']) for (const fn of listeners.get(key) ?? []) fn(data, event);
  };
  const onMessage = (e: MessageEvent) => {
    // Only the frame we made, at the origin we loaded, speaking this protocol.
    if (e.source !== iframe.contentWindow || e.origin !== origin) return;
    const msg = e.data as { source?: unknown; event?: unknown; data?: unknown } | null;
    if (!msg || msg.source !== EVENT_SOURCE || typeof msg.event !== 'string') return;
    emit(msg.event as CallEventName, msg.data ?? {});
  };
  win.addEventListener('message', onMessage);
  const send = (command: EmbedCommand) =>
    iframe.contentWindow?.postMessage({ source: COMMAND_SOURCE, ...command }, origin);
  const add = (key: string, fn: Listener) => {
    if (!listeners.has(key)) listeners.set(key, new Set());
    listeners.get(key)!.add(fn);
  };

  const call: MountedCall = {
    iframe,
    on(event, listener) {
      add(event, listener as Listener);
      return call;
    },
    off(event, listener) {
      listeners.get(event)?.delete(listener as Listener);
      return call;
    },
    onAny(listener) {
      add('*', (data, event) => listener(event, data as CallEvents[CallEventName]));
      return call;
    },
    leave: () => send({ command: 'leave' }),
    toggleMicrophone: () => send({ command: 'toggle-microphone' }),
    toggleCamera: () => send({ command: 'toggle-camera' }),
    setDisplayName: (displayName) => send({ command: 'set-display-name', displayName: String(displayName) }),
    destroy() {
      win.removeEventListener('message', onMessage);
      listeners.clear();
      iframe.remove();
    },
  };
  return call;
}
