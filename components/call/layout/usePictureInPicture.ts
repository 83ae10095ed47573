'use client';

import { useCallback, useEffect, useState } from 'react';

/**
 * The focused (or first) video in the browser's picture-in-picture window, and whether one is.
 * `supported` is false where the browser has none (then the call shows no button).
 */
export function usePictureInPicture(video: () => HTMLVideoElement | null) {
  const [active, setActive] = useState(false);
  const supported = typeof document !== 'undefined' && !!document.pictureInPictureEnabled;
  useEffect(() => {
    const update = () => setActive(!!document.pictureInPictureElement);
    // The events fire on the video element and bubble to nothing: capture them on the document.
    document.addEventListener('enterpictureinpicture', update, true);
    document.addEventListener('leavepictureinpicture', update, true);
    return () => {
      document.removeEventListener('enterpictureinpicture', update, true);
      document.removeEventListener('leavepictureinpicture', update, true);
    };
  }, []);
  const toggle = useCallback(() => {
    if (document.pictureInPictureElement) void document.exitPictureInPicture().catch(() => undefined);
    else
      void video()
        ?.requestPictureInPicture()
        .catch(() => undefined);
  }, [video]);
  return { supported, active, toggle };
}
