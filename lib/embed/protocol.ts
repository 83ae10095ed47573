/**
 * The embedding protocol between the hosted call UI (in an iframe) and the page that frames it
 * (public/embed.js, @convene/sdk/embed, or an integrator's own code): its rules. Pure; see
 * docs/hosted-ui.md. The messages themselves (names and shapes) are in lib/embed/messages.ts.
 *
 * Events go to the parent's origin only, and only when that origin is in the tenant's
 * frameAncestors allowlist; commands are obeyed only from the parent window at that same origin.
 */
import {
  COMMAND_SOURCE,
  EVENT_SOURCE,
  PROTOCOL_VERSION,
  type EmbedCommand,
  type EmbedEventName,
  type EmbedEvents,
  type LeftReason,
} from '@/lib/embed/messages';

/** The error screens that mean "out of the meeting": a `left` event, not an `error`. */
export const LEFT_REASONS: Record<string, LeftReason> = {
  left: 'left',
  removed: 'removed',
  ended: 'ended',
  denied: 'refused',
};

/**
 * Whether an origin is in a frame-ancestors allowlist: exact (scheme, host and port), or a
 * `scheme://*.host` entry matching any subdomain of host, as CSP does.
 */
export function originAllowed(origin: string, allowlist: readonly string[]): boolean {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  if (url.origin !== origin) return false;
  return allowlist.some((entry) => {
    const wild = /^(https?):\/\/\*\.([^/:]+)(:\d+)?$/.exec(entry);
    if (!wild) return entry === origin;
    return (
      url.protocol === `${wild[1]}:` &&
      url.hostname.endsWith(`.${wild[2]}`) &&
      (wild[3] ?? '') === (url.port ? `:${url.port}` : '')
    );
  });
}

/**
 * The parent page's origin, if the page is framed by an allowed one: the browser's own word
 * (location.ancestorOrigins, Chromium and Safari), else the referrer's origin (Firefox); null when
 * not framed or not allowed, and then nothing is ever posted.
 */
export function allowedParentOrigin(opts: {
  framed: boolean;
  ancestorOrigin: string | null;
  referrer: string | null;
  allowlist: readonly string[];
}): string | null {
  if (!opts.framed) return null;
  let origin = opts.ancestorOrigin;
  if (!origin && opts.referrer) {
    try {
      origin = new URL(opts.referrer).origin;
    } catch {
      origin = null;
    }
  }
  return origin && originAllowed(origin, opts.allowlist) ? origin : null;
}

/** A command from the parent, or null for anything else (other sources' messages are not ours to read). */
export function parseCommand(data: unknown): EmbedCommand | { command: string; invalid: true } | null {
  if (!data || typeof data !== 'object') return null;
  const msg = data as Record<string, unknown>;
  if (msg.source !== COMMAND_SOURCE || typeof msg.command !== 'string') return null;
  switch (msg.command) {
    case 'leave':
      return { command: 'leave' };
    case 'toggle-microphone':
      return { command: 'toggle-microphone' };
    case 'toggle-camera':
      return { command: 'toggle-camera' };
    case 'set-display-name': {
      const name = typeof msg.displayName === 'string' ? msg.displayName.trim() : '';
      return name && name.length <= 100
        ? { command: 'set-display-name', displayName: name }
        : { command: msg.command, invalid: true };
    }
    default:
      return { command: msg.command.slice(0, 50), invalid: true };
  }
}

export function eventMessage<E extends EmbedEventName>(event: E, data: EmbedEvents[E]) {
  return { source: EVENT_SOURCE, version: PROTOCOL_VERSION, event, data };
}
