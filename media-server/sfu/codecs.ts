import { RTCRtpCodecParameters, useFIR, useNACK, usePLI } from 'werift';

// One codec per kind: what the browser publishes is what every subscriber can decode.
export const CODECS = {
  audio: [new RTCRtpCodecParameters({ mimeType: 'audio/opus', clockRate: 48000, channels: 2 })],
  video: [
    new RTCRtpCodecParameters({
      mimeType: 'video/VP8',
      clockRate: 90000,
      rtcpFeedback: [useNACK(), usePLI(), useFIR()],
    }),
  ],
};
