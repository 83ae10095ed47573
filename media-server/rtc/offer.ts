/**
 * A client's offer as this server applies it (werift) and reads it (the session's sections, codecs
 * and cids). Browsers write the same session differently and werift reads Chromium's way best;
 * each rewrite below says which browser needs it.
 */

/** A description's text cut at its media sections: the session part, then each m-section (without its leading CRLF). */
export const sectionsOf = (sdp: string) => sdp.split(/\r\n(?=m=)/);

/**
 * Firefox bundles as JSEP says (RFC 8843 §7.3.3, RFC 9429 §5.2.1): every section after the first of
 * a BUNDLE group has port 0 and `a=bundle-only`. werift knows no bundle-only: it read port 0 as a
 * rejected section, gave the rest transports of their own outside the group, answered the client's
 * sending sections as rejected, and unpublished its tracks on the next offer. Chromium writes port
 * 9 with no bundle-only; so is a bundle-only section here. A section rejected for good (port 0
 * without bundle-only) stays rejected.
 */
function withoutBundleOnly(section: string) {
  if (!/\r\na=bundle-only(?=\r\n|$)/.test(section)) return section;
  return section.replace(/^(m=\S+) 0 /, '$1 9 ').replace(/\r\na=bundle-only(?=\r\n|$)/, '');
}

/**
 * One layer of a simulcast section: this server does not switch layers, so every subscriber gets
 * the one kept — good enough to see someone, light enough for one Node process to forward to a
 * handful of people.
 *
 * Chromium (and libwebrtc) tell layers apart by their rid alone: the middle one of three is kept
 * (a 720p camera's 360p layer, as livekit-client lists its layers lowest first: q;h;f), else the
 * highest, and the answer accepts that rid only.
 *
 * Firefox also lists an SSRC (and an RTX SSRC) per layer, and once an answer has accepted one rid
 * its next offer drops simulcast and sends one stream under its first layer's SSRC: werift then
 * made that SSRC a track of its own beside the rid's, the published track kept the rid's, and
 * subscribers saw a few frames, then nothing. Such a section is answered without simulcast from
 * the start (an answer without simulcast leaves the offerer one stream, its first: RFC 8853), with its first layer's
 * SSRCs — the stream Firefox sends through every later offer — at most the size of the layer kept
 * of Chromium's (capFrameSize), in this answer and in those to its later offers (which no longer
 * say simulcast): `oneStream` holds the mids of such sections across one connection's offers.
 */
function oneLayerOnly(section: string, oneStream: Set<string>) {
  const simulcast = /\r\na=simulcast:send ([^\r\n]+)/.exec(section);
  const mid = /\r\na=mid:(\S+)/.exec(section)?.[1];
  if (!simulcast)
    return mid !== undefined && oneStream.has(mid) ? capFrameSize(section.split('\r\n')).join('\r\n') : section;
  const lines = section.split('\r\n');
  if (lines.some((line) => line.startsWith('a=ssrc:'))) {
    if (mid !== undefined) oneStream.add(mid);
    const first = lines
      .find((line) => line.startsWith('a=ssrc:'))!
      .slice('a=ssrc:'.length)
      .split(' ')[0];
    const group = lines.find((line) => line.startsWith(`a=ssrc-group:FID ${first} `));
    const kept = new Set(group ? group.split(' ').slice(1) : [first]);
    return capFrameSize(
      lines
        .filter((line) => !line.startsWith('a=rid:') && !line.startsWith('a=simulcast:'))
        .filter((line) => !line.startsWith('a=ssrc-group:') || line === group)
        .filter((line) => !line.startsWith('a=ssrc:') || kept.has(line.slice('a=ssrc:'.length).split(' ')[0])),
    ).join('\r\n');
  }
  const rids = simulcast[1]
    .split(';')
    .map((alternatives) => alternatives.split(',')[0].replace(/^~/, ''))
    .filter(Boolean);
  const keep = rids.length >= 3 ? rids[1] : rids[rids.length - 1];
  return lines
    .filter((line) => !(line.startsWith('a=rid:') && !line.startsWith(`a=rid:${keep} `)))
    .map((line) => (line.startsWith('a=simulcast:send ') ? `a=simulcast:send ${keep}` : line))
    .join('\r\n');
}

/**
 * The most macroblocks (16×16 pixels) a frame of a camera sent as one stream may have: 640×360, the
 * layer kept of a 1280×720 camera that Chromium simulcasts.
 */
export const ONE_STREAM_MAX_FS = (640 * 360) / 256;

/**
 * Asks for Firefox's one stream at ONE_STREAM_MAX_FS at most: each video codec's max-fs (RFC 7741
 * §6.1; RFC 6184 and RFC 9628 the same) is lowered to it. This server answers a sending section
 * with the codec parameters as offered (codecs.ts), so the answer says it decodes no larger frame,
 * and Firefox scales its camera down to fit. Sent at the camera's size (1280×720), two Firefox people
 * each encoded and decoded four times the pixels a Chromium person does; on a 2-core machine that
 * starved this process, whose ICE sockets then dropped packets — key frames, consent answers (ice.ts)
 * — and their call froze.
 */
function capFrameSize(lines: string[]) {
  const primaries = lines
    .map((line) => /^a=rtpmap:(\d+) ([^/]+)\//.exec(line))
    .filter((m): m is RegExpExecArray => !!m && !/^(rtx|red|ulpfec|flexfec-03)$/i.test(m[2]))
    .map((m) => m[1]);
  const withParameters = new Set(lines.map((line) => /^a=fmtp:(\d+) /.exec(line)?.[1]));
  return lines.flatMap((line) => {
    const rtpmap = /^a=rtpmap:(\d+) /.exec(line)?.[1];
    // A codec offered without parameters gets a line of its own, beside its rtpmap.
    if (rtpmap && primaries.includes(rtpmap) && !withParameters.has(rtpmap))
      return [line, `a=fmtp:${rtpmap} max-fs=${ONE_STREAM_MAX_FS}`];
    const fmtp = /^a=fmtp:(\d+) (.*)$/.exec(line);
    if (!fmtp || !primaries.includes(fmtp[1])) return [line];
    const parameters = fmtp[2].split(';');
    const at = parameters.findIndex((p) => /^\s*max-fs=/i.test(p));
    if (at < 0) parameters.push(`max-fs=${ONE_STREAM_MAX_FS}`);
    else parameters[at] = `max-fs=${Math.min(Number(parameters[at].split('=')[1]), ONE_STREAM_MAX_FS)}`;
    return [`a=fmtp:${fmtp[1]} ${parameters.join(';')}`];
  });
}

/**
 * The offer werift applies and the session reads (its sections, codecs and cids). `oneStream`: the
 * connection's memory of the sections made one stream (oneLayerOnly), kept from offer to offer.
 */
export function readableOffer(sdp: string, oneStream = new Set<string>()) {
  const [session, ...media] = sectionsOf(sdp);
  return [session, ...media.map((section) => oneLayerOnly(withoutBundleOnly(section), oneStream))].join('\r\n');
}

/**
 * Each m-section of an offer by mid: the browser's track id (LiveKit's "cid", from its a=msid
 * line) and whether it sends (a section the client stopped sending in is inactive or recvonly,
 * or rejected with port 0).
 */
export function sectionsByMid(sdp: string) {
  const map = new Map<string, { cid?: string; sending: boolean }>();
  for (const section of sdp.split(/\r\nm=/).slice(1)) {
    const mid = /\r\na=mid:(\S+)/.exec(section)?.[1];
    if (!mid) continue;
    const direction = /\r\na=(sendrecv|sendonly|recvonly|inactive)\b/.exec(section)?.[1] ?? 'sendrecv';
    const rejected = /^\S+ 0 /.test(section);
    map.set(mid, {
      cid: /\r\na=msid:\S+ (\S+)/.exec(section)?.[1],
      sending: !rejected && (direction === 'sendrecv' || direction === 'sendonly'),
    });
  }
  return map;
}

export type OfferSections = ReturnType<typeof sectionsByMid>;
